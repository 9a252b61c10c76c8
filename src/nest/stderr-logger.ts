import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/**
 * Nest's `ConsoleLogger` writing every level to stderr, for an application served over stdio,
 * where stdout carries protocol messages only:
 * `NestFactory.createApplicationContext(AppModule, { logger: new StderrLogger() })`.
 */
export class StderrLogger extends ConsoleLogger {
  /** Writes every message, whatever its level, to stderr. */
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
