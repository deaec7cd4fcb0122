import { start } from './app/start';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A static import: the build lists the app's chunks in index.html (modulepreload), so the browser fetches them all
// at once instead of discovering them one round trip later. An unknown VITE_BRAND cannot get here: the build
// refuses it (vite.config.ts).
start(root);
