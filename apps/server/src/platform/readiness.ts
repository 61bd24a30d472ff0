/** One dependency `/readyz` checks (the database; Redis when configured). */
export interface DependencyCheck {
  name: string;
  /** Resolves when the dependency answers within `timeoutMs`, rejects otherwise. */
  probe(timeoutMs: number): Promise<void>;
}

/** A dependency's state; `draining` is the node's own, while it sends its fans elsewhere. */
export type CheckResult = 'ok' | 'unreachable' | 'draining';

/** What `/readyz` answers: ready only when every check passed. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** Each probe gets this long: a hung dependency makes the probe answer 503, not hang. */
export const READINESS_TIMEOUT_MS = 2_000;

/** Runs every check at once, each bounded by `timeoutMs` (the probe's own bound plus a backstop). */
export async function checkReadiness(checks: readonly DependencyCheck[], timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (c): Promise<[string, CheckResult]> => {
      let timer: NodeJS.Timeout | undefined;
      const backstop = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs + 100);
      });
      try {
        await Promise.race([c.probe(timeoutMs), backstop]);
        return [c.name, 'ok'];
      } catch {
        return [c.name, 'unreachable'];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every(([, r]) => r === 'ok'), checks: Object.fromEntries(results) };
}
