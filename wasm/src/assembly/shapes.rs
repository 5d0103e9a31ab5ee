//! Full geometry of the matches (`LineString`, `Polygon`, multipolygons: [`super::geometry`])
//! once the geometry read has located their nodes.

use super::*;

impl Assembler {

    /// Gives every matched way its full geometry from the locations now known (nodes missing
    /// from the file are left out); the ways go to the map's queue again. Does nothing for an
    /// answer over [`MAX_SHAPES`].
    pub fn finish_geometry(&mut self) {
        if self.matched > MAX_SHAPES {
            return;
        }
        let ids: Vec<i64> = self.ways.iter().filter(|(_, w)| !w.fixed && w.position.is_some()).map(|(&id, _)| id).collect();
        for id in ids {
            let way = &self.ways[&id];
            let refs = way.refs.to_vec();
            let vertices = refs.iter().filter_map(|&r| locate(&mut self.locations, &mut self.outside, r)).collect();
            let shape = way_shape(&way.tags, &refs, vertices);
            let way = self.ways.get_mut(&id).expect("listed above");
            if way.shape.as_deref() != shape.as_ref() {
                way.shape = shape.map(Box::new);
                self.changed(ElementType::Way, id, true);
            }
        }
        let ids: Vec<i64> = self.relations.iter().filter(|(_, r)| r.position.is_some()).map(|(&id, _)| id).collect();
        for id in ids {
            let (shape, problem) = self.relation_shape(id);
            let relation = self.relations.get_mut(&id).expect("listed above");
            if relation.shape != shape || relation.problem != problem {
                relation.shape = shape;
                relation.problem = problem;
                self.changed(ElementType::Relation, id, true);
            }
        }
    }


    /// Relation `id`'s geometry from the locations now known, and why a multipolygon is
    /// broken if it is (see [`crate::assembly::geometry`]).
    fn relation_shape(&mut self, id: i64) -> (Option<Shape>, Option<String>) {
        let r = &self.relations[&id];
        let (locations, outside) = (&mut self.locations, &mut self.outside);
        let mut ways: Vec<MemberWay> = Vec::new();
        for (_, member, _) in r.members.iter().filter(|m| m.0 == 1) {
            let Some(refs) = way_refs(&self.ways, &self.member_ways, *member) else { continue };
            let vertices = refs.iter().map(|&n| locate(locations, outside, n)).collect();
            ways.push(MemberWay { id: *member, refs, vertices });
        }
        let kind = r.tags.iter().find(|(k, _)| k == "type").map(|(_, v)| v.as_str());
        let fallback = || member_lines(&ways).or_else(|| r.position.map(|[y, x]| Shape::Point([e7(y), e7(x)])));
        if matches!(kind, Some("multipolygon" | "boundary")) {
            match assemble_multipolygon(&ways) {
                Ok(shape) => (Some(shape), None),
                Err(why) => (fallback(), Some(format!("broken multipolygon: {why}"))),
            }
        } else {
            (fallback(), None)
        }
    }


    /// The shape the match `(t, id)` is drawn and exported with: its geometry when known, else
    /// the point it is placed at. None when it is not a match.
    pub fn shape(&self, t: ElementType, id: i64) -> Option<Shape> {
        match t {
            ElementType::Node => self.nodes.get(&id).map(|n| Shape::Point([e7(n.lat), e7(n.lon)])),
            ElementType::Way => {
                let w = self.ways.get(&id)?;
                let [lat, lon] = w.position?;
                Some(w.shape.as_deref().cloned().unwrap_or(Shape::Point([e7(lat), e7(lon)])))
            }
            ElementType::Relation => {
                let r = self.relations.get(&id).filter(|r| r.is_match())?;
                r.shape.clone().or_else(|| r.position.map(|[lat, lon]| Shape::Point([e7(lat), e7(lon)])))
            }
        }
    }

    /// The shape the match `(t, id)` is exported with, and why a multipolygon is broken when
    /// that is found only now: as [`Assembler::shape`], and for an answer over [`MAX_SHAPES`]
    /// (drawn as points) its full geometry, built now from the locations the geometry read
    /// found. No shape when it is not a match, or has no location (matched by its tags alone:
    /// exported with a null geometry).
    pub fn export_shape(&mut self, t: ElementType, id: i64) -> (Option<Shape>, Option<String>) {
        if self.matched <= MAX_SHAPES {
            return (self.shape(t, id), None);
        }
        let (built, problem) = match t {
            ElementType::Node => (None, None),
            ElementType::Way => match self.ways.get(&id).filter(|w| !w.fixed && w.shape.is_none() && w.position.is_some()) {
                Some(w) => {
                    let (locations, outside) = (&mut self.locations, &mut self.outside);
                    let refs = w.refs.to_vec();
                    let vertices = refs.iter().filter_map(|&r| locate(locations, outside, r)).collect();
                    (way_shape(&w.tags, &refs, vertices), None)
                }
                None => (None, None),
            },
            ElementType::Relation => match self.relations.get(&id) {
                Some(r) if r.position.is_some() && r.shape.is_none() => self.relation_shape(id),
                _ => (None, None),
            },
        };
        (built.or_else(|| self.shape(t, id)), problem)
    }
}
