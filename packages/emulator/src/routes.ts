import { Router } from './router.js';
import { registerAlertDefinitionRoutes } from './handlers/alert-definitions.js';
import { registerMonitorGroupRoutes } from './handlers/monitor-groups.js';
import { registerMonitorRoutes } from './handlers/monitors.js';
import { registerScheduledReportRoutes } from './handlers/scheduled-reports.js';
import { registerSlaRoutes } from './handlers/slas.js';
import { registerVaultRoutes } from './handlers/vault.js';
import { registerOperatorRoutes } from './handlers/operators.js';
import { registerReferenceRoutes } from './handlers/reference.js';
import { registerHistoryRoutes } from './handlers/history.js';
import { registerRumWebsiteRoutes } from './handlers/rum-websites.js';

export function buildRouter(): Router {
  const router = new Router();
  registerMonitorRoutes(router);
  registerMonitorGroupRoutes(router);
  registerVaultRoutes(router);
  registerSlaRoutes(router);
  registerScheduledReportRoutes(router);
  registerAlertDefinitionRoutes(router);
  registerOperatorRoutes(router);
  registerReferenceRoutes(router);
  registerHistoryRoutes(router);
  registerRumWebsiteRoutes(router);
  return router;
}
