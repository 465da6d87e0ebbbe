//! The table insertion modes (§13.2.6.4.9 to §13.2.6.4.15): in table, in
//! table text, in caption, in column group, in table body, in row and in
//! cell, and *reset the insertion mode appropriately*.

use super::insert::find_nul;
use super::state::ElemInfo;
use super::tag_sets::Scope;
use super::{Flow, InsertionMode, Tok, TreeBuilder, TreeErrorKind, TreeSink, is_space};
use crate::names::LocalName as L;
use crate::token::TokenText;

fn is_table_context(e: &ElemInfo) -> bool {
    matches!(e.html_name(), Some(L::Table | L::Template | L::Html))
}

fn is_table_body_context(e: &ElemInfo) -> bool {
    matches!(
        e.html_name(),
        Some(L::Tbody | L::Tfoot | L::Thead | L::Template | L::Html)
    )
}

/// `caption`, `col`, `colgroup`, `tbody`, `td`, `tfoot`, `th`, `thead`,
/// `tr`: the start tags that end a caption or a cell.
fn is_table_part(name: Option<L>) -> bool {
    matches!(
        name,
        Some(
            L::Caption
                | L::Col
                | L::Colgroup
                | L::Tbody
                | L::Td
                | L::Tfoot
                | L::Th
                | L::Thead
                | L::Tr
        )
    )
}

fn is_row_context(e: &ElemInfo) -> bool {
    matches!(e.html_name(), Some(L::Tr | L::Template | L::Html))
}

impl<S: TreeSink> TreeBuilder<S> {
    /// The "in table" insertion mode.
    pub(crate) fn in_table<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(_)
                if self.current().is_some_and(|o| {
                    matches!(
                        o.info.html_name(),
                        Some(L::Table | L::Tbody | L::Template | L::Tfoot | L::Thead | L::Tr)
                    )
                }) =>
            {
                self.state.pending_text.clear();
                self.state.pending_pieces.clear();
                self.state.original_mode = self.state.mode;
                self.state.mode = InsertionMode::InTableText;
                Flow::Again(token)
            }
            Tok::Comment(c) => {
                self.insert_comment(c);
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) => match tag.local() {
                Some(L::Caption) => {
                    self.pop_while_not(is_table_context);
                    self.push_marker();
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InCaption;
                    Flow::Done
                }
                Some(L::Colgroup) => {
                    self.pop_while_not(is_table_context);
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InColumnGroup;
                    Flow::Done
                }
                Some(L::Col) => {
                    self.pop_while_not(is_table_context);
                    self.insert_implied(L::Colgroup);
                    self.state.mode = InsertionMode::InColumnGroup;
                    Flow::Again(token)
                }
                Some(L::Tbody | L::Tfoot | L::Thead) => {
                    self.pop_while_not(is_table_context);
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InTableBody;
                    Flow::Done
                }
                Some(L::Td | L::Th | L::Tr) => {
                    self.pop_while_not(is_table_context);
                    self.insert_implied(L::Tbody);
                    self.state.mode = InsertionMode::InTableBody;
                    Flow::Again(token)
                }
                Some(L::Table) => {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    if !self.in_scope(L::Table, Scope::Table) {
                        return Flow::Done;
                    }
                    self.pop_until(L::Table);
                    self.reset_insertion_mode();
                    Flow::Again(token)
                }
                Some(L::Style | L::Script | L::Template) => self.in_head(token),
                Some(L::Input)
                    if tag
                        .attrs
                        .value(L::Type)
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    self.insert_html_element(&tag);
                    self.pop();
                    Flow::Done
                }
                Some(L::Form) => {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    if self.stack_has(L::Template) || self.state.form.is_some() {
                        return Flow::Done;
                    }
                    let form = self.insert_html_element(&tag);
                    self.state.form = Some(form);
                    self.pop();
                    Flow::Done
                }
                _ => self.in_table_else(token),
            },
            Tok::End(tag) => match tag.local() {
                Some(L::Table) => {
                    if !self.in_scope(L::Table, Scope::Table) {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                        return Flow::Done;
                    }
                    self.pop_until(L::Table);
                    self.reset_insertion_mode();
                    Flow::Done
                }
                Some(
                    L::Body
                    | L::Caption
                    | L::Col
                    | L::Colgroup
                    | L::Html
                    | L::Tbody
                    | L::Td
                    | L::Tfoot
                    | L::Th
                    | L::Thead
                    | L::Tr,
                ) => {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    Flow::Done
                }
                Some(L::Template) => self.in_head(token),
                _ => self.in_table_else(token),
            },
            Tok::Eof => self.in_body(token),
            Tok::Text(_) => self.in_table_else(token),
        }
    }

    /// In table, "anything else": in body, with foster parenting.
    fn in_table_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.error(TreeErrorKind::UnexpectedStartTag);
        self.state.foster_parenting = true;
        let flow = self.in_body(token);
        self.state.foster_parenting = false;
        flow
    }

    /// The "in table text" insertion mode.
    pub(crate) fn in_table_text<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        if let Tok::Text(t) = token {
            let s = t.as_str();
            if find_nul(s).is_some() {
                self.error(TreeErrorKind::UnexpectedNull);
            }
            let mut offset = match t {
                TokenText::Input { start, .. } => Some(start),
                TokenText::Scratch(_) => None,
            };
            for piece in s.split('\0') {
                if !piece.is_empty() {
                    self.state.pending_text.push_str(piece);
                    self.state.pending_pieces.push((piece.len(), offset));
                }
                offset = offset.map(|o| o + piece.len() + 1);
            }
            return Flow::Done;
        }
        // Anything else: flush the pending text.
        let text = std::mem::take(&mut self.state.pending_text);
        let pieces = std::mem::take(&mut self.state.pending_pieces);
        let foster = text.bytes().any(|b| !is_space(b));
        let mut at = 0;
        for &(len, offset) in &pieces {
            let s = &text[at..at + len];
            at += len;
            let piece = match offset {
                Some(start) => TokenText::Input { start, text: s },
                None => TokenText::Scratch(s),
            };
            if foster {
                self.error(TreeErrorKind::UnexpectedText);
                self.state.foster_parenting = true;
                self.in_body(Tok::Text(piece));
                self.state.foster_parenting = false;
            } else {
                self.insert_text(piece);
            }
        }
        // Keep the buffers' capacity for the next table text.
        self.state.pending_text = text;
        self.state.pending_text.clear();
        self.state.pending_pieces = pieces;
        self.state.pending_pieces.clear();
        self.state.mode = self.state.original_mode;
        Flow::Again(token)
    }

    /// The "in caption" insertion mode.
    pub(crate) fn in_caption<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        let closes_caption = match token {
            Tok::End(tag) if tag.is(L::Caption) => Some(false),
            Tok::Start(tag) if is_table_part(tag.local()) => Some(true),
            Tok::End(tag) if tag.is(L::Table) => Some(true),
            Tok::End(tag)
                if matches!(
                    tag.local(),
                    Some(
                        L::Body
                            | L::Col
                            | L::Colgroup
                            | L::Html
                            | L::Tbody
                            | L::Td
                            | L::Tfoot
                            | L::Th
                            | L::Thead
                            | L::Tr
                    )
                ) =>
            {
                self.error(TreeErrorKind::UnexpectedEndTag);
                return Flow::Done;
            }
            _ => None,
        };
        let Some(reprocess) = closes_caption else {
            return self.in_body(token);
        };
        if !self.in_scope(L::Caption, Scope::Table) {
            self.error(TreeErrorKind::UnexpectedEndTag);
            return Flow::Done;
        }
        self.generate_implied_end_tags(None);
        if !self.current_is(L::Caption) {
            self.error(TreeErrorKind::UnexpectedEndTag);
        }
        self.pop_until(L::Caption);
        self.clear_formatting_to_marker();
        self.state.mode = InsertionMode::InTable;
        if reprocess {
            Flow::Again(token)
        } else {
            Flow::Done
        }
    }

    /// The "in column group" insertion mode.
    pub(crate) fn in_column_group<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => {
                return match self.insert_leading_spaces(t) {
                    None => Flow::Done,
                    Some(rest) => self.in_column_group_else(Tok::Text(rest)),
                };
            }
            Tok::Comment(c) => {
                self.insert_comment(c);
                return Flow::Done;
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                return Flow::Done;
            }
            Tok::Start(tag) if tag.is(L::Html) => return self.in_body(token),
            Tok::Start(tag) if tag.is(L::Col) => {
                self.insert_html_element(&tag);
                self.pop();
                return Flow::Done;
            }
            Tok::End(tag) if tag.is(L::Colgroup) => {
                if !self.current_is(L::Colgroup) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.pop();
                self.state.mode = InsertionMode::InTable;
                return Flow::Done;
            }
            Tok::End(tag) if tag.is(L::Col) => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                return Flow::Done;
            }
            Tok::Start(tag) | Tok::End(tag) if tag.is(L::Template) => return self.in_head(token),
            Tok::Eof => return self.in_body(token),
            _ => {}
        }
        self.in_column_group_else(token)
    }

    fn in_column_group_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        if !self.current_is(L::Colgroup) {
            self.error(TreeErrorKind::UnexpectedText);
            return Flow::Done;
        }
        self.pop();
        self.state.mode = InsertionMode::InTable;
        Flow::Again(token)
    }

    /// The "in table body" insertion mode.
    pub(crate) fn in_table_body<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Start(tag) if tag.is(L::Tr) => {
                self.pop_while_not(is_table_body_context);
                self.insert_html_element(&tag);
                self.state.mode = InsertionMode::InRow;
                Flow::Done
            }
            Tok::Start(tag) if matches!(tag.local(), Some(L::Th | L::Td)) => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                self.pop_while_not(is_table_body_context);
                self.insert_implied(L::Tr);
                self.state.mode = InsertionMode::InRow;
                Flow::Again(token)
            }
            Tok::End(tag) if matches!(tag.local(), Some(L::Tbody | L::Tfoot | L::Thead)) => {
                let name = tag.local().expect("matched");
                if !self.in_scope(name, Scope::Table) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.pop_while_not(is_table_body_context);
                self.pop();
                self.state.mode = InsertionMode::InTable;
                Flow::Done
            }
            Tok::Start(tag)
                if matches!(
                    tag.local(),
                    Some(L::Caption | L::Col | L::Colgroup | L::Tbody | L::Tfoot | L::Thead)
                ) =>
            {
                self.leave_table_body(token)
            }
            Tok::End(tag) if tag.is(L::Table) => self.leave_table_body(token),
            Tok::End(tag)
                if matches!(
                    tag.local(),
                    Some(
                        L::Body
                            | L::Caption
                            | L::Col
                            | L::Colgroup
                            | L::Html
                            | L::Td
                            | L::Th
                            | L::Tr
                    )
                ) =>
            {
                self.error(TreeErrorKind::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_table(token),
        }
    }

    fn leave_table_body<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        let any_open = self.in_scope_any(&[L::Tbody, L::Thead, L::Tfoot], Scope::Table);
        if !any_open {
            self.error(TreeErrorKind::UnexpectedStartTag);
            return Flow::Done;
        }
        self.pop_while_not(is_table_body_context);
        self.pop();
        self.state.mode = InsertionMode::InTable;
        Flow::Again(token)
    }

    /// The "in row" insertion mode.
    pub(crate) fn in_row<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Start(tag) if matches!(tag.local(), Some(L::Th | L::Td)) => {
                self.pop_while_not(is_row_context);
                self.insert_html_element(&tag);
                self.state.mode = InsertionMode::InCell;
                self.push_marker();
                Flow::Done
            }
            Tok::End(tag) if tag.is(L::Tr) => {
                if self.close_row() {
                    self.state.mode = InsertionMode::InTableBody;
                }
                Flow::Done
            }
            Tok::Start(tag)
                if matches!(
                    tag.local(),
                    Some(
                        L::Caption | L::Col | L::Colgroup | L::Tbody | L::Tfoot | L::Thead | L::Tr
                    )
                ) =>
            {
                if self.close_row() {
                    self.state.mode = InsertionMode::InTableBody;
                    return Flow::Again(token);
                }
                Flow::Done
            }
            Tok::End(tag) if tag.is(L::Table) => {
                if self.close_row() {
                    self.state.mode = InsertionMode::InTableBody;
                    return Flow::Again(token);
                }
                Flow::Done
            }
            Tok::End(tag) if matches!(tag.local(), Some(L::Tbody | L::Tfoot | L::Thead)) => {
                let name = tag.local().expect("matched");
                if !self.in_scope(name, Scope::Table) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                if self.close_row() {
                    self.state.mode = InsertionMode::InTableBody;
                    return Flow::Again(token);
                }
                Flow::Done
            }
            Tok::End(tag)
                if matches!(
                    tag.local(),
                    Some(L::Body | L::Caption | L::Col | L::Colgroup | L::Html | L::Td | L::Th)
                ) =>
            {
                self.error(TreeErrorKind::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_table(token),
        }
    }

    /// Closes the current row if a `tr` is in table scope; false (a parse
    /// error) if not.
    fn close_row(&mut self) -> bool {
        if !self.in_scope(L::Tr, Scope::Table) {
            self.error(TreeErrorKind::UnexpectedEndTag);
            return false;
        }
        self.pop_while_not(is_row_context);
        self.pop();
        true
    }

    /// The "in cell" insertion mode.
    pub(crate) fn in_cell<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::End(tag) if matches!(tag.local(), Some(L::Td | L::Th)) => {
                let name = tag.local().expect("matched");
                if !self.in_scope(name, Scope::Table) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(name) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until(name);
                self.clear_formatting_to_marker();
                self.state.mode = InsertionMode::InRow;
                Flow::Done
            }
            Tok::Start(tag) if is_table_part(tag.local()) => {
                let cell_open =
                    self.in_scope(L::Td, Scope::Table) || self.in_scope(L::Th, Scope::Table);
                if !cell_open {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    return Flow::Done;
                }
                self.close_cell();
                Flow::Again(token)
            }
            Tok::End(tag)
                if matches!(
                    tag.local(),
                    Some(L::Body | L::Caption | L::Col | L::Colgroup | L::Html)
                ) =>
            {
                self.error(TreeErrorKind::UnexpectedEndTag);
                Flow::Done
            }
            Tok::End(tag)
                if matches!(
                    tag.local(),
                    Some(L::Table | L::Tbody | L::Tfoot | L::Thead | L::Tr)
                ) =>
            {
                let name = tag.local().expect("matched");
                if !self.in_scope(name, Scope::Table) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.close_cell();
                Flow::Again(token)
            }
            _ => self.in_body(token),
        }
    }

    /// *Close the cell*.
    fn close_cell(&mut self) {
        self.generate_implied_end_tags(None);
        if !self.current_is(L::Td) && !self.current_is(L::Th) {
            self.error(TreeErrorKind::UnexpectedEndTag);
        }
        self.pop_until_by(|e| matches!(e.html_name(), Some(L::Td | L::Th)));
        self.clear_formatting_to_marker();
        self.state.mode = InsertionMode::InRow;
    }

    /// *Reset the insertion mode appropriately*.
    pub(crate) fn reset_insertion_mode(&mut self) {
        use InsertionMode as M;
        // The walk down from the current node stops at the topmost element
        // that sets a mode, or at the root (the context element, when
        // parsing a fragment). The root is never anything but `html`.
        let open = &self.state.open;
        let setting = [
            L::Td,
            L::Th,
            L::Tr,
            L::Tbody,
            L::Thead,
            L::Tfoot,
            L::Caption,
            L::Colgroup,
            L::Table,
            L::Template,
            L::Head,
            L::Body,
            L::Frameset,
        ];
        let top = setting
            .iter()
            .filter_map(|&n| open.top_html(n))
            .filter(|&i| i > 0)
            .max();
        for i in top.into_iter().chain([0]) {
            let last = i == 0;
            let info = match (last, self.state.context) {
                (true, Some(context)) => context,
                _ => self.state.open[i].info,
            };
            let mode = match info.html_name() {
                Some(L::Td | L::Th) if !last => M::InCell,
                Some(L::Tr) => M::InRow,
                Some(L::Tbody | L::Thead | L::Tfoot) => M::InTableBody,
                Some(L::Caption) => M::InCaption,
                Some(L::Colgroup) => M::InColumnGroup,
                Some(L::Table) => M::InTable,
                Some(L::Template) => *self.state.template_modes.last().unwrap_or(&M::InBody),
                Some(L::Head) if !last => M::InHead,
                Some(L::Body) => M::InBody,
                Some(L::Frameset) => M::InFrameset,
                Some(L::Html) => {
                    if self.state.head.is_none() {
                        M::BeforeHead
                    } else {
                        M::AfterHead
                    }
                }
                _ if last => M::InBody,
                _ => continue,
            };
            self.state.mode = mode;
            return;
        }
        self.state.mode = M::InBody;
    }
}
