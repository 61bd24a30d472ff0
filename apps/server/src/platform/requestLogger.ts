/**
 * Request loggers made on first use (issue 16). Fastify binds each request's `reqId` by making a
 * pino child for every request; at `LOG_LEVEL=warn` a cached read never logs, and making that
 * child was about 3 % of `GET party`'s CPU. Here the child is made only when the request logs at
 * an enabled level, asks for a child of its own, or changes its level.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

type LogMethod = (...args: unknown[]) => void;

class LazyRequestLogger {
  private made: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
  ) {}

  /** The pino child, made now if it was not yet. */
  logger(): Logger {
    return (this.made ??= this.parent.child(this.childBindings));
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.made ? this.made.bindings() : { ...this.parent.bindings(), ...this.childBindings };
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger().child(bindings, options);
  }
}

for (const level of LEVELS) {
  Object.defineProperty(LazyRequestLogger.prototype, level, {
    value: function (this: LazyRequestLogger, ...args: unknown[]): void {
      if (this.isLevelEnabled(level)) (this.logger()[level] as LogMethod).apply(this.logger(), args);
    },
  });
}

/**
 * Fastify's `childLoggerFactory`: a request logger that becomes a pino child the first time it
 * is needed. A route with its own log level or serializers gets its child at once.
 */
export function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return parent.child(bindings, options);
  return new LazyRequestLogger(parent as Logger, bindings) as unknown as FastifyBaseLogger;
}
