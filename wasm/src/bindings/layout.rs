//! The layout's JavaScript face: `optimize` for the command line, and area copies for the
//! query worker (`docs/optimize.md`).

use wasm_bindgen::prelude::*;

/// `optimize` (`docs/optimize.md`) for the command line: takes the input's frames in order
/// (`addFrame`), then [`FileLayout`] gives the new file frame by frame and its blob index.
#[wasm_bindgen]
pub struct FileOptimizer {
    inner: Option<crate::layout::Optimizer>,
}

#[wasm_bindgen]
impl FileOptimizer {
    #[wasm_bindgen(constructor)]
    pub fn new() -> FileOptimizer {
        FileOptimizer { inner: Some(crate::layout::Optimizer::new()) }
    }

    /// Adds the next frame: its BlobHeader's type and its Blob's bytes. Throws for a corrupt
    /// blob, a history file, OSMData before the OSMHeader, or after `finish`.
    #[wasm_bindgen(js_name = addFrame)]
    pub fn add_frame(&mut self, kind: &str, blob: &[u8]) -> Result<(), JsError> {
        let inner = self.inner.as_mut().ok_or_else(|| JsError::new("the optimizer has finished"))?;
        Ok(inner.add_frame(kind, blob)?)
    }

    /// The new layout (the elements move into it). Throws when no OSMHeader came, or twice.
    pub fn finish(&mut self) -> Result<FileLayout, JsError> {
        let inner = self.inner.take().ok_or_else(|| JsError::new("the optimizer has finished"))?;
        Ok(FileLayout { inner: inner.finish()? })
    }
}

impl Default for FileOptimizer {
    fn default() -> Self {
        FileOptimizer::new()
    }
}

/// The optimized file, frame by frame, then its blob index.
#[wasm_bindgen]
pub struct FileLayout {
    inner: crate::layout::Layout,
}

#[wasm_bindgen]
impl FileLayout {
    /// The next frame's bytes (the OSMHeader first), undefined after the last.
    #[wasm_bindgen(js_name = nextFrame)]
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, JsError> {
        Ok(self.inner.next_frame()?)
    }

    /// OSMData frames in all, and written so far.
    #[wasm_bindgen(js_name = framesTotal)]
    pub fn frames_total(&self) -> u32 {
        self.inner.frames_total() as u32
    }

    #[wasm_bindgen(js_name = framesWritten)]
    pub fn frames_written(&self) -> u32 {
        self.inner.frames_written() as u32
    }

    /// The file's blob index (`docs/blob-index.md`) once every frame is written, else undefined.
    #[wasm_bindgen(js_name = blobIndex)]
    pub fn blob_index(&mut self) -> Option<Vec<u8>> {
        self.inner.blob_index()
    }
}

/// An area copy (`docs/optimize.md`, "Area copies") for the query worker: takes the file's
/// frames in order, pass after pass (`addFrame`, then `endPass` says whether the file must be
/// read again), then [`FileLayout`] gives the copy frame by frame and its blob index.
#[wasm_bindgen]
pub struct AreaCopy {
    inner: Option<crate::layout::AreaCopier>,
}

#[wasm_bindgen]
impl AreaCopy {
    /// A copy for the bbox from (`min_lat`, `min_lon`) to (`max_lat`, `max_lon`), degrees WGS84
    /// ([`super::QueryAssembler::area_copy_bbox`]).
    #[wasm_bindgen(constructor)]
    pub fn new(min_lat: f64, min_lon: f64, max_lat: f64, max_lon: f64) -> AreaCopy {
        AreaCopy { inner: Some(crate::layout::AreaCopier::new([min_lat, min_lon, max_lat, max_lon])) }
    }

    /// Adds the next frame of this pass: its BlobHeader's type and its Blob's bytes. Throws
    /// for a corrupt blob, a history file, OSMData before the OSMHeader, or after the last pass.
    #[wasm_bindgen(js_name = addFrame)]
    pub fn add_frame(&mut self, kind: &str, blob: &[u8]) -> Result<(), JsError> {
        let inner = self.inner.as_mut().ok_or_else(|| JsError::new("the area copy has finished"))?;
        Ok(inner.add_frame(kind, blob)?)
    }

    /// Ends a pass: true when the file must be read again from its start.
    #[wasm_bindgen(js_name = endPass)]
    pub fn end_pass(&mut self) -> bool {
        self.inner.as_mut().is_some_and(|c| c.end_pass())
    }

    /// Elements kept so far: [nodes, ways, relations].
    pub fn counts(&self) -> Vec<f64> {
        self.inner.as_ref().map_or(vec![0.0; 3], |c| c.counts().iter().map(|&n| n as f64).collect())
    }

    /// The copy's layout (the elements move into it). Throws before the last pass ended, or twice.
    pub fn finish(&mut self) -> Result<FileLayout, JsError> {
        let inner = self.inner.take().ok_or_else(|| JsError::new("the area copy has finished"))?;
        Ok(FileLayout { inner: inner.finish()? })
    }
}
