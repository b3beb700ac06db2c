import { useCallback } from 'react';
import { toast, TOAST_DURATION } from '../../../lib/toast';
import { absolutePageUrl } from '../api/pages.api';

/** Puts `{origin}/{slug}` on the clipboard and says so ('URL Copied') for 2 s. */
export function useCopyPageUrl() {
  return useCallback(async (slug: string) => {
    try {
      await navigator.clipboard.writeText(absolutePageUrl(slug));
      toast({
        title: 'URL Copied',
        description: 'Link copied to clipboard!',
        variant: 'success',
        duration: TOAST_DURATION.copy,
      });
    } catch {
      toast({
        title: 'Copy failed',
        description: `Copy the link by hand: ${absolutePageUrl(slug)}`,
        variant: 'destructive',
      });
    }
  }, []);
}
