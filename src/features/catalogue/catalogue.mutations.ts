import { useMutation, useQueryClient } from '@tanstack/react-query';
import { catalogueKeys } from './catalogue.hooks';

// Apart from catalogue.hooks.ts: the marketplace only reads, and its first visit loads no useMutation (issue 39).

/** Any catalogue write can change counts, coverage, markers and feeds: everything catalogue is refetched. */
export function useCatalogueMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: catalogueKeys.all }),
  });
}
