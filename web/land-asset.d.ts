/** The URL of Natural Earth's land as GeoJSON, made at build time (`scripts/vite-land-asset.ts`). */
declare module '*?geojson-url' {
  const url: string;
  export default url;
}
