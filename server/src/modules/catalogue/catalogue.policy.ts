/**
 * Who sees what of the catalogue. Writes are admin-only, enforced by the routes' auth level; the public sees
 * the networks an operator chose to publish and has not retired, and their stations.
 */
export function isPubliclyListed(network: { is_public: boolean; status: string }): boolean {
  return network.is_public && network.status !== 'retired';
}
