// A Go bench peer in osmar's manner (osmar's own engine, github.com/codesoap/pbf, is not served
// by this machine's module proxy): one pass over a PBF with github.com/paulmach/osm/osmpbf's
// parallel decoder, the nodes within RADIUS metres of LAT,LON that carry the TAGs (KEY=VALUE;
// values of one key or-ed, keys and-ed; KEY=_ any value), the ways with such tags and a node in
// the circle, and the relations with such tags and a member node or way in it; printed in
// osmar's line format, nearest first.
//
// Usage: go-peer FILE LAT LON RADIUS TAG...
package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmpbf"
)

const earthRadius = 6371008.8

func haversine(lat1, lon1, lat2, lon2 float64) float64 {
	p1, p2 := lat1*math.Pi/180, lat2*math.Pi/180
	dp, dl := p2-p1, (lon2-lon1)*math.Pi/180
	a := math.Pow(math.Sin(dp/2), 2) + math.Cos(p1)*math.Cos(p2)*math.Pow(math.Sin(dl/2), 2)
	return 2 * earthRadius * math.Asin(math.Min(1, math.Sqrt(a)))
}

type match struct {
	kind     string
	id       int64
	distance float64
	tags     osm.Tags
}

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: go-peer FILE LAT LON RADIUS TAG...")
		os.Exit(2)
	}
	lat, _ := strconv.ParseFloat(os.Args[2], 64)
	lon, _ := strconv.ParseFloat(os.Args[3], 64)
	radius, _ := strconv.ParseFloat(os.Args[4], 64)
	anyValue := map[string]bool{}
	values := map[string][]string{}
	for _, t := range os.Args[5:] {
		k, v, hasValue := strings.Cut(t, "=")
		if !hasValue || v == "_" {
			anyValue[k] = true
		} else {
			values[k] = append(values[k], v)
		}
	}
	matches := func(tags osm.Tags) bool {
		for k := range anyValue {
			if !tags.HasTag(k) {
				return false
			}
		}
		for k, vs := range values {
			if !anyValue[k] && (!tags.HasTag(k) || !contains(vs, tags.Find(k))) {
				return false
			}
		}
		return true
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	// A bbox around the circle: nodes outside it are not measured.
	dLat := radius / earthRadius * 180 / math.Pi
	dLon := dLat / math.Max(math.Cos(lat*math.Pi/180), 1e-9)
	inArea := map[osm.NodeID]float64{}
	waysInArea := map[osm.WayID]bool{}
	var found []match
	scanner := osmpbf.New(context.Background(), f, runtime.GOMAXPROCS(-1))
	defer scanner.Close()
	for scanner.Scan() {
		switch o := scanner.Object().(type) {
		case *osm.Node:
			if math.Abs(o.Lat-lat) > dLat || math.Abs(o.Lon-lon) > dLon {
				continue
			}
			if d := haversine(lat, lon, o.Lat, o.Lon); d <= radius {
				inArea[o.ID] = d
				if len(o.Tags) > 0 && matches(o.Tags) {
					found = append(found, match{"node", int64(o.ID), d, o.Tags})
				}
			}
		case *osm.Way:
			nearest := math.Inf(1)
			for _, n := range o.Nodes {
				if d, ok := inArea[n.ID]; ok {
					nearest = math.Min(nearest, d)
				}
			}
			if math.IsInf(nearest, 1) {
				continue
			}
			waysInArea[o.ID] = true
			if matches(o.Tags) {
				found = append(found, match{"way", int64(o.ID), nearest, o.Tags})
			}
		case *osm.Relation:
			if !matches(o.Tags) {
				continue
			}
			nearest := math.Inf(1)
			for _, m := range o.Members {
				if d, ok := inArea[osm.NodeID(m.Ref)]; ok && m.Type == osm.TypeNode {
					nearest = math.Min(nearest, d)
				} else if m.Type == osm.TypeWay && waysInArea[osm.WayID(m.Ref)] {
					nearest = math.Min(nearest, radius)
				}
			}
			if !math.IsInf(nearest, 1) {
				found = append(found, match{"relation", int64(o.ID), nearest, o.Tags})
			}
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].distance < found[j].distance })
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i, m := range found {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "meta:id: %d\nmeta:type: %s\nmeta:distance: %.0fm\nmeta:link: https://www.openstreetmap.org/%s/%d\n", m.id, m.kind, m.distance, m.kind, m.id)
		tags := append(osm.Tags(nil), m.tags...)
		sort.Slice(tags, func(a, b int) bool { return tags[a].Key < tags[b].Key })
		for _, t := range tags {
			fmt.Fprintf(out, "%s: %s\n", t.Key, t.Value)
		}
	}
}

func contains(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
