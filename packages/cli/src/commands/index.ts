import type { CommandSpec } from '../command.js';
import { emulatorCommand } from './emulator.js';
import { migrateCommand } from './migrate.js';
import { planCommand } from './plan.js';
import { pullCommand } from './pull.js';
import { validateCommand } from './validate.js';

/** In the order `monsync --help` lists them. `apply` joins after `plan` with the apply issue. */
export const COMMANDS: readonly CommandSpec[] = [validateCommand, planCommand, pullCommand, migrateCommand, emulatorCommand];
