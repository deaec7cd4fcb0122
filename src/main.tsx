import { resolveBrand } from './lib/brand/brands';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// An unknown VITE_BRAND stops the start with the list of allowed keys (the build already refuses it).
try {
  resolveBrand(import.meta.env.VITE_BRAND);
  void import('./app/start').then(({ start }) => start(root));
} catch (error) {
  root.textContent = error instanceof Error ? error.message : String(error);
  throw error;
}
