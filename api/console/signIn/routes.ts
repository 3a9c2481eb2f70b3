import type Router from '@koa/router';
import type { PublicRoute } from '../../kernel/app';
import type { AppDeps } from '../../kernel/deps';
import { favicon } from './answers';
import { signInCallbackRoute } from './callback';
import { AUTH_PATH, signInOf } from './context';
import { signOutRoute } from './signOut';
import { signInStartRoute } from './start';
import { authStateRoute } from './state';

/**
 * The console's OpenID Connect sign-in (Authorization Code flow with PKCE, state and nonce, a confidential
 * client), its sessions and the favicon. Provider tokens stay in this process: the browser gets only the
 * session cookie. Without `OIDC_ISSUER` the sign-in answers 404 and the console offers API keys alone.
 */
export function signInRoutes(deps: AppDeps): PublicRoute {
  const signIn = signInOf(deps);
  return (router: Router) => {
    router.get('/favicon.ico', favicon);
    router.get('/console/favicon.svg', favicon);
    router.get(`${AUTH_PATH}/state`, authStateRoute(signIn));
    router.get(`${AUTH_PATH}/sign-in`, signInStartRoute(signIn));
    router.get(`${AUTH_PATH}/callback`, signInCallbackRoute(signIn));
    router.post(`${AUTH_PATH}/sign-out`, signOutRoute(signIn));
  };
}
