// The relay's logging (log/): pino behind the relay's own small interface, phone and secret
// masking, and the repeat-line policy. This file only re-exports, so importers name one module.
export { createLogger, type Fields, type Logger, type LoggerOptions, type LogLevel, type RootLogger } from './logger.ts';
export { maskPhone } from './mask.ts';
