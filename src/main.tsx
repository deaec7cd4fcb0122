import { start } from './app/start';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A static import: this module and start.tsx's whole static graph are one chunk (vite.config.ts), which index.html
// loads at once. An unknown VITE_BRAND cannot get here: the build refuses it (vite.config.ts).
start(root);
