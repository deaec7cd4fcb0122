import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { router } from './app/router';
import { initI18n } from './lib/i18n';
import './index.css';

void initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Suspense fallback={null}>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </Suspense>
  </StrictMode>,
);
