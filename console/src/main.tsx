import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadConsoleConfig } from './config/console-config';
import './app/styles.css';

void loadConsoleConfig().then((config) => {
  createRoot(document.getElementById('root')!).render(<App config={config} />);
});
