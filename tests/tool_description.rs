//! A tool's description promises what this build reads: the unified `read_file` says PDFs
//! come back as text only in a build that reads them (feature `pdf`), and images are
//! downscaled only in a build that can (feature `images`); otherwise it says they are
//! refused, as they are. The test holds in every build: it reads a PDF and an image over
//! the image policy and checks the description against what the answer was.

mod documents;

use rangeread::tool::{Dialect, DialectTool};
use rangeread::Workspace;
use serde_json::json;

#[test]
fn the_read_file_description_promises_what_this_build_reads() {
    let dir = tempfile::tempdir().unwrap();
    let text = documents::stream("", b"BT /F1 12 Tf 72 720 Td (Hello from page one) Tj ET");
    std::fs::write(
        dir.path().join("doc.pdf"),
        documents::one_page_pdf(text, true),
    )
    .unwrap();
    // 3000x10 black, over every policy's long edge: sent only downscaled.
    let png = documents::png(3000, 10, &documents::zlib_zeros(10 * 3001));
    std::fs::write(dir.path().join("wide.png"), png).unwrap();
    let tool = DialectTool::new(Dialect::preset("read_file").unwrap())
        .workspace(Workspace::new(dir.path()).unwrap());
    let description = tool.definition().description;
    assert!(
        !description.contains("{images}") && !description.contains("{pdfs}"),
        "{description}"
    );
    let refused = |path: &str| {
        let r = tool.respond(json!({"path": path}));
        if !r.is_error {
            return false;
        }
        let kind = r.structured.as_ref().map(|s| s["kind"].clone());
        assert_eq!(kind, Some(json!("feature_disabled")), "{path}: {}", r.text);
        true
    };

    let pdf_read = "PDFs come back as the text of their pages";
    let pdf_refused = "PDFs are refused: this build has no PDF reader.";
    let pdf_refused_here = refused("doc.pdf");
    assert_eq!(pdf_refused_here, !cfg!(feature = "pdf"));
    if pdf_refused_here {
        assert!(description.contains(pdf_refused) && !description.contains(pdf_read));
    } else {
        assert!(description.contains(pdf_read) && !description.contains(pdf_refused));
    }

    let resized = "downscaled to the model's limits";
    let not_resized = "this build cannot resize or crop, so a larger image, or a crop, is refused";
    let image_refused_here = refused("wide.png");
    assert_eq!(image_refused_here, !cfg!(feature = "images"));
    if image_refused_here {
        assert!(description.contains(not_resized) && !description.contains(resized));
    } else {
        assert!(description.contains(resized) && !description.contains(not_resized));
    }
}
