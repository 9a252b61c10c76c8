export { createProxy, type Proxy, type ProxyOptions } from './create-proxy.js';
export { checkUpstream, upstreamName, type ProxyUpstream } from './upstream-config.js';
