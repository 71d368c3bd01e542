// The call-tracking service's settings.

/** The service's projects keep their call log in Kyiv time unless CALLTRACKING_TIMEZONE says otherwise. */
export const DEFAULT_PROJECT_TIME_ZONE = 'Europe/Kyiv';
