import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Scrolls to the section named by the URL's #anchor, once the sections are on screen. */
export function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);
}
