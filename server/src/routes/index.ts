// The relay's one route table. Every route module exports the same shape, a RouteModule: given the
// app and the files the relay serves, the routes it adds (none when its feature is off). Each route
// declares its path, its methods, its origin rule and, when token-protected, who may see it
// (http/router.ts); the relay applies those before any handler runs.
import type { AppContext } from '../app/app-context.ts';
import type { Route } from '../http/router.ts';
import type { StaticSet } from '../http/static-files.ts';
import { assetRoutes } from './assets.ts';
import { callbackRoutes } from './callback.ts';
import { callbackByIdRoutes } from './callback-by-id.ts';
import { demoRoutes } from './demo.ts';
import { healthRoutes } from './health.ts';
import { metricsRoutes } from './metrics.ts';
import { ownerRoutes } from './owner.ts';
import { openedRoutes } from './opened.ts';
import { readyzRoutes } from './readyz.ts';
import { routeWebhookRoutes } from './route-webhook.ts';
import { statusRoutes } from './status.ts';

export interface RelayFiles {
  /** The built widget (dist/widget). */
  widget: StaticSet;
  /** The demo folder (the demo pages), read and compressed on first use only. */
  demo: () => StaticSet;
}

export type RouteModule = (app: AppContext, files: RelayFiles) => Route[];

const modules: readonly RouteModule[] = [
  callbackRoutes,
  callbackByIdRoutes,
  openedRoutes,
  statusRoutes,
  assetRoutes,
  healthRoutes,
  readyzRoutes,
  metricsRoutes,
  routeWebhookRoutes,
  ownerRoutes,
  demoRoutes,
];

export function routeTable(app: AppContext, files: RelayFiles): Route[] {
  return modules.flatMap((module) => module(app, files));
}
