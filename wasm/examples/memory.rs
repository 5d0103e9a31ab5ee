//! Peak heap of one answer, read natively as the browser's query worker reads it (the same read
//! plan, one thread), without the file's own bytes: what the answer costs a tab's memory.
//! `cargo run --release --example memory -- FILE.osm.pbf [QUERY]` (QUERY: tags, default
//! `building`); with `TIMELINE=1` in the environment, the bytes held each second.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use pbf_explorer::{read_answer, Area, Query, DEFAULT_LOCATION_BUDGET};

/// The system allocator, counting the bytes held now and at most.
struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: memory FILE.osm.pbf [QUERY]");
    let tags = args.next().unwrap_or_else(|| "building".into());
    let file = std::fs::read(&path).expect("readable file");
    let base = NOW.load(Relaxed);
    PEAK.store(base, Relaxed);
    let prepared = Query::from_tags(&tags, Area::Everywhere).unwrap().prepare().unwrap();
    let t = std::time::Instant::now();
    if std::env::var("TIMELINE").is_ok() {
        std::thread::spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_millis(1000));
            eprintln!("{:5.1} s {:6.0} MB", t.elapsed().as_secs_f64(), (NOW.load(Relaxed) - base) as f64 / 1e6);
        });
    }
    let mut plan = read_answer(&file, &prepared, DEFAULT_LOCATION_BUDGET).expect("a readable file");
    let n = plan.answer_mut().len();
    let (peak, held) = (PEAK.load(Relaxed) - base, NOW.load(Relaxed) - base);
    let mb = |b: usize| b as f64 / 1e6;
    println!("{n} matches in {:.1} s: peak {:.0} MB ({:.0} B a match), held at the end {:.0} MB", t.elapsed().as_secs_f64(), mb(peak), peak as f64 / n.max(1) as f64, mb(held));
    // The list's first rows, as the page asks for them once the answer is in: the sort of
    // every match.
    let _ = plan.answer_mut().rows(0, 10);
    println!("with the list sorted: held {:.0} MB, peak {:.0} MB", mb(NOW.load(Relaxed) - base), mb(PEAK.load(Relaxed) - base));
}
