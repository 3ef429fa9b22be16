/** Which calls the cluster places on the worker with the most room: those whose capability says so. */
import { getCapability } from '../capabilities/registry.js';

/** A call that starts a session or reads a browser's tabs (`placement: 'place'` on its capability). */
export function places(name: string): boolean {
  return getCapability(name)?.placement === 'place';
}
