import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const apiTarget = env.DEV_API_TARGET ?? 'http://localhost:8080';
  return {
    plugins: [react(), tailwindcss()],
    server: { port: 5173, proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
    build: { sourcemap: true, chunkSizeWarningLimit: 900 },
  };
});
