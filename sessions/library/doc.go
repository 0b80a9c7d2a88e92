// Package library is the saved-session library: one directory
// (FRAMESCOPE_DATA_DIR, else framescope/sessions in the user's data
// directory) holding each live session's JSONL capture and its metadata. It
// creates, finishes, lists, resolves (@last, @ID, @prefix), removes and
// prunes sessions, keeps the library within its size cap, and writes the
// session table and its JSON. It knows captures only as files: it imports
// nothing but the sessions vocabulary, so the capture readers can resolve
// @refs through it.
package library
