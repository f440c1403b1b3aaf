/** Windows, the unit (targets/unit.ts): what it decides, and where it runs (its emitter and runner are found by the folder's name). */
import type { PlatformUnit } from '../unit.js';
import { windowsModel } from './model/index.js';

export const windowsUnit: PlatformUnit = { model: windowsModel, system: 'win32' };
