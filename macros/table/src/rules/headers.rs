//! Which headers a typedef's types are judged against: those of every toolkit that has the
//! typedef. A struct may change layout under one typedef version (`CUdevResource` was aligned to
//! 4 bytes up to CUDA 13.0 and to 8 from 13.1, `CUtensorMap` to 64 in 12.x and to 128 from
//! 13.0); a binding written against any of those headers is right, so each of their layouts is
//! accepted, and a mismatch names them all with their toolkits.

use crate::{CType, Cuda, Typedef, Version};

/// The toolkits whose headers have a typedef: `first_toolkit..=last_toolkit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Toolkits {
    first: u32,
    last: u32,
}

impl Toolkits {
    pub(crate) const fn new(first: u32, last: u32) -> Toolkits {
        Toolkits { first, last }
    }

    /// Every toolkit there is.
    #[cfg(test)]
    pub(crate) const fn every() -> Toolkits {
        Toolkits::new(0, u32::MAX)
    }

    pub(crate) fn of(t: &Typedef) -> Toolkits {
        Toolkits::new(t.first_toolkit, t.last_toolkit)
    }

    /// Whether `found` is a layout these headers gave `c`.
    pub(crate) fn accepts(self, c: &CType, found: (u32, u32)) -> bool {
        c.has_layout_within(found, self.first, self.last)
    }

    /// Every layout these headers gave `c`, newest first, without repeats; `c`'s own where none
    /// of them has it.
    pub(crate) fn layouts(self, c: &CType) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for l in c.layouts_within(self.first, self.last).rev() {
            if !out.contains(&(l.size, l.align)) {
                out.push((l.size, l.align));
            }
        }
        if out.is_empty() {
            out.push((c.size, c.align));
        }
        out
    }

    /// `c`'s layout in these headers as the messages say it: `144 bytes, align 8`, or, where
    /// they differ, each with its toolkits: `144 bytes, align 4 in CUDA 12.4 to 13.0 and 144
    /// bytes, align 8 in CUDA 13.1 to 13.5`.
    pub(crate) fn describe(self, c: &CType) -> String {
        let runs: Vec<_> = c.layouts_within(self.first, self.last).collect();
        let distinct = self.layouts(c).len();
        if distinct < 2 {
            let (size, align) = self.layouts(c)[0];
            return format!("{size} bytes, align {align}");
        }
        let each: Vec<String> = runs
            .iter()
            .map(|l| {
                // The part of the layout's toolkits that has the typedef.
                let (first, last) = (
                    l.first_toolkit.max(self.first),
                    l.last_toolkit.min(self.last),
                );
                let toolkits = if first == last {
                    format!("{}", Cuda(first))
                } else {
                    let last =
                        Version::new(last).map_or_else(|_| last.to_string(), Version::dotted);
                    format!("{} to {last}", Cuda(first))
                };
                format!("{} bytes, align {} in {toolkits}", l.size, l.align)
            })
            .collect();
        match each.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    #[test]
    fn a_typedef_accepts_the_layouts_of_its_headers() {
        let t = find("cuCtxGetDevResource", 12040, false).expect("a typedef");
        let resource = t.params[1].ty.pointee.expect("CUdevResource");
        let within = Toolkits::of(t);
        assert!(within.accepts(resource, (144, 4)));
        assert!(within.accepts(resource, (144, 8)));
        assert!(!within.accepts(resource, (144, 16)));
        assert_eq!(within.layouts(resource), [(144, 8), (144, 4)]);
        assert_eq!(
            within.describe(resource),
            "144 bytes, align 4 in CUDA 12.4 to 13.0 and 144 bytes, align 8 in CUDA 13.1 to 13.5"
        );
        // Headers of 13.1 on only: one layout.
        let newer = Toolkits::new(13010, 13050);
        assert!(!newer.accepts(resource, (144, 4)));
        assert_eq!(newer.describe(resource), "144 bytes, align 8");
        let size = &find("cuMemAlloc", 3020, false).expect("a typedef").params[1].ty;
        assert_eq!(within.describe(size), "8 bytes, align 8");
    }
}
