/**
 * The number of matches each cluster of the map stands for, written on it: an HTML marker per
 * cluster in the loaded tiles. The map has no glyphs offline (a symbol layer's text needs a
 * glyph server), and the clusters in view are few (one per 40 px at most).
 */
import { Marker, type Map as MapLibreMap } from 'maplibre-gl';

export class ClusterCounts {
  /** Markers by cluster (its id, count and place: a new answer may reuse an id). */
  private markers = new Map<string, Marker>();

  /**
   * @param source the clustered GeoJSON source; `clustered` says whether it is clustered now
   *   (when not, there is nothing to count and no source query is made).
   */
  constructor(
    private map: MapLibreMap,
    private source: string,
    private clustered: () => boolean,
  ) {
    map.on('moveend', () => this.update());
    map.on('sourcedata', (e) => {
      if (e.sourceId === source && e.isSourceLoaded) this.update();
    });
  }

  /** Writes the count on each cluster of the loaded tiles, and removes the markers of clusters gone. */
  update(): void {
    const seen = new Set<string>();
    const clusters = this.clustered() ? this.map.querySourceFeatures(this.source, { filter: ['has', 'point_count'] }) : [];
    for (const cluster of clusters) {
      if (cluster.geometry.type !== 'Point') continue;
      const [lon, lat] = cluster.geometry.coordinates;
      const key = `${cluster.properties.cluster_id}:${cluster.properties.point_count}:${lon}:${lat}`;
      if (seen.has(key)) continue; // a cluster near a tile's edge is in both tiles
      seen.add(key);
      if (this.markers.has(key)) continue;
      const label = document.createElement('div');
      label.className = 'cluster-count';
      label.dataset.testid = 'cluster-count';
      label.dataset.count = String(cluster.properties.point_count);
      label.textContent = String(cluster.properties.point_count_abbreviated);
      this.markers.set(key, new Marker({ element: label }).setLngLat([lon, lat]).addTo(this.map));
    }
    for (const [key, marker] of this.markers) {
      if (seen.has(key)) continue;
      marker.remove();
      this.markers.delete(key);
    }
  }
}
