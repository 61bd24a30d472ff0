import { z } from 'zod';
import type { App } from '../../platform/http.ts';

type Service = 'spotify' | 'apple';

/** What one emulated fan keeps in their library. */
export interface EmulatedLibrary {
  albums: string[];
  tracks: string[];
  artists: string[];
  /** Library writes answered for this fan (a test counts them to see each save made once). */
  writes: number;
}

/**
 * The emulators' fan libraries and catalogue availability per country, held by the node that
 * runs them (an emulator, like its players: not shared between nodes). Tests and the demo steer it
 * through `/emulator/control/...`: mark a release unavailable in a country, read a fan's library,
 * make the next library writes fail.
 */
export class EmulatorLibrary {
  private readonly libraries = new Map<string, { albums: Set<string>; tracks: Set<string>; artists: Set<string>; writes: number }>();
  private readonly unavailable = new Set<string>();
  private readonly faults = new Map<string, { status: number; count: number }>();

  private of(service: Service, fan: string) {
    const key = `${service}:${fan}`;
    let lib = this.libraries.get(key);
    if (!lib) this.libraries.set(key, (lib = { albums: new Set(), tracks: new Set(), artists: new Set(), writes: 0 }));
    return lib;
  }

  /** One library write: `ids` of each kind added (a write of two kinds, Apple's, counts once). */
  add(service: Service, fan: string, items: Partial<Record<'albums' | 'tracks' | 'artists', string[]>>): void {
    const lib = this.of(service, fan);
    lib.writes += 1;
    for (const kind of ['albums', 'tracks', 'artists'] as const) for (const id of items[kind] ?? []) lib[kind].add(id);
  }

  library(service: Service, fan: string): EmulatedLibrary {
    const lib = this.of(service, fan);
    return { albums: [...lib.albums], tracks: [...lib.tracks], artists: [...lib.artists], writes: lib.writes };
  }

  setAvailable(service: Service, id: string, country: string, available: boolean): void {
    const key = `${service}:${id}:${country.toUpperCase()}`;
    if (available) this.unavailable.delete(key);
    else this.unavailable.add(key);
  }

  isAvailable(service: Service, id: string, country: string): boolean {
    return !this.unavailable.has(`${service}:${id}:${country.toUpperCase()}`);
  }

  /** The status the next library write of `fan` on `service` must fail with, if a fault is armed (for the fan, else for all). */
  takeFault(service: Service, fan: string): number | null {
    for (const key of [`${service}:${fan}`, service]) {
      const f = this.faults.get(key);
      if (!f || f.count <= 0) continue;
      f.count -= 1;
      return f.status;
    }
    return null;
  }

  armFault(service: Service, status: number, count: number, fan?: string): void {
    this.faults.set(fan ? `${service}:${fan}` : service, { status, count });
  }
}

const ServiceParam = z.enum(['spotify', 'apple']);
const AvailabilityBody = z.object({ service: ServiceParam, id: z.string().min(1).max(100), country: z.string().regex(/^[A-Za-z]{2}$/), available: z.boolean() });
const LibraryQuery = z.object({ service: ServiceParam, fan: z.string().min(1).max(64) });
const FaultBody = z.object({ service: ServiceParam, status: z.number().int().min(400).max(599), count: z.number().int().min(0).max(100), fan: z.string().min(1).max(64).optional() });

/** The emulators' control calls (emulator only; hidden from the API documents). */
export async function registerEmulatorControl(app: App, library: EmulatorLibrary): Promise<void> {
  const bad = (detail: string) => ({ detail });
  app.put('/emulator/control/availability', { schema: { hide: true } }, async (req, reply) => {
    const body = AvailabilityBody.safeParse(req.body);
    if (!body.success) return reply.status(400).send(bad('Expected {service, id, country, available}'));
    library.setAvailable(body.data.service, body.data.id, body.data.country, body.data.available);
    return reply.status(204).send();
  });
  app.get('/emulator/control/library', { schema: { hide: true } }, async (req, reply) => {
    const q = LibraryQuery.safeParse(req.query);
    if (!q.success) return reply.status(400).send(bad('Expected ?service=spotify|apple&fan=<login hint>'));
    return library.library(q.data.service, q.data.fan);
  });
  app.post('/emulator/control/faults', { schema: { hide: true } }, async (req, reply) => {
    const body = FaultBody.safeParse(req.body);
    if (!body.success) return reply.status(400).send(bad('Expected {service, status, count, fan?}'));
    library.armFault(body.data.service, body.data.status, body.data.count, body.data.fan);
    return reply.status(204).send();
  });
}
