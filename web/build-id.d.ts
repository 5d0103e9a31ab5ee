/** The build's identifier, set by vite.config.ts (shown in the footer). */
declare const __BUILD_ID__: string;
