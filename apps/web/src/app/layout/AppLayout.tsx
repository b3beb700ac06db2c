import { Box } from '@mantine/core';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader';
import { useDocumentTitle } from './document-title';
import { Navbar } from './Navbar';
import { SkipLink, mainRegionProps } from './SkipLink';

/** A new screen starts at the top (the home page scrolls to its #anchors itself). */
function useScrollToTopOnNavigate() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
}

export function AppLayout() {
  useScrollToTopOnNavigate();
  useDocumentTitle();
  return (
    <>
      <SkipLink />
      <Navbar />
      <Box component="main" {...mainRegionProps}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
    </>
  );
}
