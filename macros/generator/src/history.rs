//! Every layout the headers gave each type, toolkit by toolkit: a struct keeps its name and its
//! typedef versions when it grows or its alignment changes (`CUtensorMap`: aligned to 64 bytes in
//! CUDA 12.x, to 128 from 13.0), and a binding written against any of those headers is right.

use std::collections::BTreeMap;

use crate::types::{Layout, TypeInfo};

/// Per spelling, the layout measured in each toolkit whose typedefs use the type.
pub(crate) type History = BTreeMap<String, BTreeMap<u32, Layout>>;

/// One layout and the toolkits that had it, one after the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Run {
    pub(crate) layout: Layout,
    pub(crate) first: u32,
    pub(crate) last: u32,
}

/// Records the layout of `t`, of what it points to and of its callback's types, in `toolkit`.
pub(crate) fn record(history: &mut History, toolkit: u32, t: &TypeInfo) {
    history
        .entry(t.spelling.clone())
        .or_default()
        .insert(toolkit, t.layout);
    if let Some(p) = &t.pointee {
        record(history, toolkit, p);
    }
    if let Some(c) = &t.callback {
        record(history, toolkit, &c.ret);
        for (_, p) in &c.params {
            record(history, toolkit, p);
        }
    }
}

/// The layouts of one type, a run per stretch of toolkits with the same layout, oldest first.
pub(crate) fn runs(per_toolkit: &BTreeMap<u32, Layout>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (&toolkit, &layout) in per_toolkit {
        match out.last_mut() {
            Some(run) if run.layout == layout => run.last = toolkit,
            _ => out.push(Run {
                layout,
                first: toolkit,
                last: toolkit,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_per_stretch_of_one_layout() {
        let l = |size, align| Layout { size, align };
        let per_toolkit: BTreeMap<u32, Layout> = [
            (12040, l(144, 4)),
            (12050, l(144, 4)),
            (13000, l(144, 4)),
            (13010, l(144, 8)),
            (13050, l(144, 8)),
        ]
        .into();
        let run = |layout, first, last| Run {
            layout,
            first,
            last,
        };
        assert_eq!(
            runs(&per_toolkit),
            [run(l(144, 4), 12040, 13000), run(l(144, 8), 13010, 13050)]
        );
        // A layout that comes back is a run of its own.
        let back: BTreeMap<u32, Layout> =
            [(11070, l(8, 8)), (11080, l(4, 4)), (12000, l(8, 8))].into();
        assert_eq!(runs(&back).len(), 3);
        assert!(runs(&BTreeMap::new()).is_empty());
    }
}
