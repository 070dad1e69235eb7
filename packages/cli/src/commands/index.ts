import type { CommandSpec } from '../command.js';
import { applyCommand } from './apply.js';
import { emulatorCommand } from './emulator.js';
import { migrateCommand } from './migrate.js';
import { planCommand } from './plan.js';
import { pullCommand } from './pull.js';
import { unlockCommand } from './unlock.js';
import { validateCommand } from './validate.js';

/** In the order `monsync --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [validateCommand, planCommand, applyCommand, unlockCommand, pullCommand, migrateCommand, emulatorCommand];
