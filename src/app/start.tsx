import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Preloader } from '../components/Preloader';
import { startTagManagerIfConsented } from '../features/consent/consent';
import { applyBrandTheme, brand } from '../lib/brand';
import { initI18n } from '../lib/i18n';
import { Providers } from './providers';
import { AppRoutes } from './router';

export function start(root: HTMLElement) {
  applyBrandTheme(brand);
  startTagManagerIfConsented(brand.gtmContainerId);
  void initI18n();
  createRoot(root).render(
    <StrictMode>
      <Suspense fallback={<Preloader fullScreen />}>
        <Providers>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </Suspense>
    </StrictMode>,
  );
}
