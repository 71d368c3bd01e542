// The owner view (`/owner`): open in demo mode, otherwise behind OWNER_TOKEN; served from the
// folder `npm run build` writes it to (OWNER_DIR).
import { type EnvReader, requiredError } from './env.ts';
import { OWNER_TOKEN_RULE } from './env-values.ts';

export interface OwnerSettings {
  /** null: the owner view exists in demo mode only, without a token. */
  token: string | null;
  /** The built owner view (`npm run build`: index.html, owner.js, owner.css). */
  dir: string;
}

export function readOwner(env: EnvReader, service: { demo: boolean; external: boolean }): OwnerSettings {
  const token = env.text('OWNER_TOKEN', OWNER_TOKEN_RULE) ?? null;
  // Demo mode opens the owner view without a token: with a real service behind it, that would show
  // the business's real calls to anyone.
  if (service.demo && service.external && token === null) {
    throw requiredError('OWNER_TOKEN', 'when DEMO=true with a real service (CALLTRACKING_BASE_URL): without it the owner view would show real calls to anyone');
  }
  return { token, dir: env.text('OWNER_DIR') ?? 'dist/owner' };
}
