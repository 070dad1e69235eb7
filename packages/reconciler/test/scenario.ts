/** A tree and an account where every kind has a create, an update and (with prune) a delete. */
import {
  aGroup,
  aLiveAlertDefinition,
  aLiveGroup,
  aLiveItem,
  aLiveMonitor,
  aLivePeriod,
  aLiveReport,
  aLiveSection,
  aLiveSla,
  aMonitor,
  anAlertDefinition,
  anItem,
  anSla,
  aPeriod,
  aReport,
  aSection,
  guidFor,
  OTHER_OPERATOR,
  secret,
  type DesiredParts,
  type LiveParts,
} from '../src/test-utils/index.js';

export const everything = (prune: boolean) => ({
  monitors: { prune },
  monitorGroups: { prune },
  vault: { prune },
  slas: { prune },
  scheduledReports: { prune },
  alertDefinitions: { prune },
});

export function scenario(prune: boolean): { parts: DesiredParts; live: LiveParts } {
  return {
    parts: {
      manage: everything(prune),
      safety: { maxDeletePercent: 100, maxUpdatePercent: 100 },
      vaultSections: [aSection({ Name: 'Web' }, [anItem({ Password: secret('pw') }), anItem({ Name: 'api-key', VaultItemType: 'OneTimePassword', Value: secret('otp') })]), aSection({ Name: 'New' })],
      monitorGroups: [aGroup({ members: ['Shop homepage', 'Checkout'] }), aGroup({ Description: 'Fresh', members: ['Checkout'] })],
      monitors: [
        aMonitor({ IsActive: false, PredefinedVariables: [{ Key: 'login', Value: { vault: 'Web/shop-login' } }] }),
        aMonitor({ Name: 'Checkout', PredefinedVariables: [{ Key: 'otp', Value: { vault: 'Web/api-key' } }] }),
      ],
      slas: [anSla({ UptimeErrorThreshold: 98, exclusionPeriods: [aPeriod(), aPeriod({ Description: 'Cyber Monday' })] }), anSla({ Description: 'Silver' })],
      scheduledReports: [aReport({ FileType: 'Html' }), aReport({ key: 'daily' })],
      alertDefinitions: [anAlertDefinition()],
    },
    live: {
      vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })],
      vaultItems: [aLiveItem('Web', { Notes: 'no marker yet' }), aLiveItem('Old', { Name: 'stale' })],
      monitorGroups: [aLiveGroup(), aLiveGroup({ Description: 'Legacy' })],
      members: { Shop: [guidFor('monitor', 'Shop homepage'), guidFor('monitor', 'Retired')] },
      monitors: [aLiveMonitor({ LastModifiedByOperatorId: OTHER_OPERATOR, LastModifiedDate: '2026-02-03T04:05:06' }), aLiveMonitor({ Name: 'Retired', PredefinedVariables: [{ Key: 'k', Value: `{{vault:${guidFor('vaultItem', 'Old/stale')}}}` }] })],
      slas: [aLiveSla(), aLiveSla({ Description: 'Bronze' })],
      exclusionPeriods: { Gold: [aLivePeriod(1), aLivePeriod(2, { Description: 'Old freeze' })] },
      scheduledReports: [aLiveReport('weekly-exec'), aLiveReport('old')],
      alertDefinitions: [aLiveAlertDefinition({ IsActive: false }), aLiveAlertDefinition({ AlertName: 'Old paging' })],
    },
  };
}

