// An incremental update of a real PDF, written by MuPDF
// (`mutool run incremental.js IN OUT`): the original bytes unchanged, then a new revision
// (objects, a cross-reference stream whose /Prev names the original's) that retitles the
// document and gives page 1 the content and resources of page 2. Readers that follow the
// newest revision see both changes.
var doc = new PDFDocument(scriptArgs[0]);
var info = doc.getTrailer().get("Info");
info.put("Title", doc.newString("An Introduction to R (updated)"));
var first = doc.findPage(0), second = doc.findPage(1);
first.put("Contents", second.get("Contents"));
first.put("Resources", second.get("Resources"));
doc.save(scriptArgs[1], "incremental");
