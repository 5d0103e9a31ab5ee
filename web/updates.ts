/**
 * The service worker's life in the page: registration, a note once the app works offline,
 * and the update prompt — a new version is never mixed in silently; it takes over (with a
 * reload) only when the user asks.
 */
import { registerSW } from 'virtual:pwa-register';

/** Registers the service worker; shows `banner` when a new version is waiting. */
export function watchForUpdates(banner: HTMLElement, offlineNote: HTMLElement): void {
  const update = registerSW({
    onNeedRefresh: () => {
      banner.hidden = false;
    },
    onOfflineReady: () => {
      offlineNote.textContent = 'Ready to work offline.';
    },
  });
  banner.querySelector('button')?.addEventListener('click', () => {
    // The waiting version takes control once told to skip waiting; reload onto it then.
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    void update(true);
  });
}
