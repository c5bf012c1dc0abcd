//! The `CUresult` codes: the enumerators of `typedef enum cudaError_enum { ... } CUresult;` in
//! cuda.h, each with the first sentence of the `/** ... */` comment before it.

/// One enumerator of `CUresult`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Status {
    pub(crate) code: i32,
    /// `CUDA_ERROR_INVALID_VALUE`.
    pub(crate) name: String,
    /// The first sentence of its doc comment, on one line, without Doxygen markup.
    pub(crate) description: String,
    /// 1-based line in cuda.h.
    pub(crate) line: usize,
}

/// The enumerators of `cudaError_enum` in cuda.h `text` (`file` names it in errors).
pub(crate) fn parse(file: &str, text: &str) -> Result<Vec<Status>, String> {
    let start = text
        .find("typedef enum cudaError_enum")
        .ok_or_else(|| format!("{file}: no `typedef enum cudaError_enum`"))?;
    let open = start
        + text[start..]
            .find('{')
            .ok_or_else(|| format!("{file}: `cudaError_enum` has no body"))?;
    let close = open
        + text[open..]
            .find('}')
            .ok_or_else(|| format!("{file}: `cudaError_enum` is not closed"))?;
    let body = &text[open + 1..close];
    let mut line = text[..=open].lines().count();
    let mut out = Vec::new();
    let mut comment: Option<String> = None;
    let mut rest = body;
    while !rest.is_empty() {
        let trimmed = rest.trim_start();
        line += rest[..rest.len() - trimmed.len()].matches('\n').count();
        rest = trimmed;
        if let Some(r) = rest.strip_prefix("/*") {
            let end = r
                .find("*/")
                .ok_or_else(|| format!("{file}:{line}: unterminated comment"))?;
            comment = Some(r[..end].to_string());
            line += r[..end].matches('\n').count();
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |e| &r[e..]);
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            let item = &rest[..end];
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("{file}:{line}: `{}` has no `= value`", item.trim()))?;
            let name = name.trim();
            let value = value.trim();
            let code = value.parse::<i32>().map_err(|_| {
                format!("{file}:{line}: {name} = `{value}` is not a decimal number")
            })?;
            let description = comment
                .take()
                .map(|c| first_sentence(&c))
                .unwrap_or_default();
            if description.is_empty() {
                return Err(format!("{file}:{line}: {name} has no doc comment"));
            }
            out.push(Status {
                code,
                name: name.to_string(),
                description,
                line,
            });
            line += item.matches('\n').count();
            rest = rest.get(end + 1..).unwrap_or("");
        }
    }
    Ok(out)
}

/// The first sentence of a Doxygen comment body, on one line: `*` margins, `\deprecated` and
/// `::` (a link) dropped, `\p x`/`\e x`/`\c x` as `x`, ending in a period (added where the
/// comment has none).
pub(crate) fn first_sentence(comment: &str) -> String {
    let mut words = Vec::new();
    for line in comment.lines() {
        let line = line.trim().trim_start_matches('*').trim_start_matches('<');
        for w in line.split_whitespace() {
            match w {
                "\\deprecated" | "\\p" | "\\e" | "\\c" | "\\ref" => {}
                _ => words.push(w.replace("::", "")),
            }
        }
    }
    let text = words.join(" ");
    // A period ends the sentence when a space or the end follows and it does not end an
    // abbreviation ("i.e.", "e.g.").
    let mut end = text.len();
    for (i, _) in text.match_indices('.') {
        let after = &text[i + 1..];
        let word_before = text[..i].rsplit(' ').next().unwrap_or("");
        let abbreviation = matches!(word_before, "i.e" | "e.g" | "(i.e" | "(e.g" | "etc" | "vs");
        if (after.is_empty() || after.starts_with(' ')) && !abbreviation {
            end = i + 1;
            break;
        }
    }
    let mut sentence = text[..end].trim().to_string();
    if !sentence.is_empty() && !sentence.ends_with('.') {
        sentence.push('.');
    }
    sentence
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerators_with_their_first_sentence() {
        let src = "typedef int x;\n/**\n * Error codes\n */\ntypedef enum cudaError_enum {\n    /**\n     * The API call returned with no errors. In the case of query calls, this\n     * also means that the operation is complete (see ::cuEventQuery()).\n     */\n    CUDA_SUCCESS                              = 0,\n\n    /**\n     * \\deprecated\n     * This error return is deprecated as of CUDA 5.0. It is no longer an error.\n     */\n    CUDA_ERROR_PROFILER_NOT_INITIALIZED       = 6,\n    /**  \n     * This most frequently indicates that there is no context bound (i.e. none) to\n     * the ::CUcontext of \\p hStream.\n     */\n    CUDA_ERROR_INVALID_CONTEXT = 201,\n    /** Unknown without a period */\n    CUDA_ERROR_UNKNOWN = 999\n} CUresult;\n";
        let got = parse("cuda.h", src).unwrap_or_else(|e| panic!("{e}"));
        let brief: Vec<(i32, &str, &str, usize)> = got
            .iter()
            .map(|s| (s.code, s.name.as_str(), s.description.as_str(), s.line))
            .collect();
        assert_eq!(
            brief,
            vec![
                (
                    0,
                    "CUDA_SUCCESS",
                    "The API call returned with no errors.",
                    10
                ),
                (
                    6,
                    "CUDA_ERROR_PROFILER_NOT_INITIALIZED",
                    "This error return is deprecated as of CUDA 5.0.",
                    16
                ),
                (
                    201,
                    "CUDA_ERROR_INVALID_CONTEXT",
                    "This most frequently indicates that there is no context bound (i.e. none) to the CUcontext of hStream.",
                    21
                ),
                (999, "CUDA_ERROR_UNKNOWN", "Unknown without a period.", 23),
            ]
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        for src in [
            "",
            "typedef enum cudaError_enum { CUDA_SUCCESS = 0,",
            "typedef enum cudaError_enum { /** x */ CUDA_SUCCESS } CUresult;",
            "typedef enum cudaError_enum { /** x */ CUDA_SUCCESS = 0x1 } CUresult;",
            "typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;",
            "typedef enum cudaError_enum { /* open",
        ] {
            assert!(parse("c.h", src).is_err(), "{src}");
        }
    }
}
