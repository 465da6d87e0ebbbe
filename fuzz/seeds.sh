#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (the working corpus; not committed) with the
# committed hand-written seeds of fuzz/seeds/<target>/ and a small,
# deterministic sample of the shared test data ($SPINNERET_SHARED, default
# ../shared beside the repository), each given the parameter header its
# target expects (see the target's module doc). Existing corpus files stay:
# a long campaign's corpus keeps growing from run to run.
#
# Usage: fuzz/seeds.sh TARGET...
# No pipefail: `head` ends its writers early by design.
set -eu
cd "$(dirname "$0")"
SHARED="${SPINNERET_SHARED:-$(cd ../.. && pwd)/shared}"
# The corpus folder: fuzz/corpus, or $FUZZ_CORPUS (run.sh ci seeds a fresh one).
CORPUS="${FUZZ_CORPUS:-corpus}"

# seed TARGET NAME: the content on stdin becomes $CORPUS/TARGET/NAME.
seed() { mkdir -p "$CORPUS/$1" && cat > "$CORPUS/$1/$2"; }

# Every N-th line of the URL lists, one URL per seed (at most 40).
url_lines() {
    awk -v n="$1" 'NR % n == 1 { print; if (++k == 40) exit }' "$SHARED"/corpus/urls/*.txt
}

# The html5lib tree-construction inputs (every 8th test's #data), at most 120.
html5lib_inputs() {
    local dir="$SHARED/testdata/html5lib/tree-construction" out="$1" header="$2"
    [ -d "$dir" ] || return 0
    local i=0
    for file in "$dir"/*.dat; do
        awk -v out="$out" -v base="$(basename "$file" .dat)" '
            /^#data$/ { n++; keep = (n % 8 == 1); if (keep) f = out "/h5-" base "-" n; body = 1; first = 1; next }
            /^#errors$/ || /^#document/ { body = 0; next }
            body && keep { if (!first) printf "\n" > f; printf "%s", $0 > f; first = 0 }
        ' "$file"
        i=$((i + 1))
    done
    # The header goes in front of each.
    for f in "$out"/h5-*; do
        [ -e "$f" ] || continue
        { printf "$header"; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
    done
}

# Up to N pages of a corpus folder, their first 3 KB, with a header.
pages() {
    local dir="$1" n="$2" target="$3" header="$4"
    [ -d "$SHARED/corpus/pages/$dir" ] || return 0
    find "$SHARED/corpus/pages/$dir" -type f | sort | head -n "$n" | while read -r page; do
        { printf "$header"; head -c 3000 "$page"; } | seed "$target" "page-$dir-$(basename "$page")"
    done
}

for target in "$@"; do
    mkdir -p "$CORPUS/$target"
    [ -d "seeds/$target" ] && cp -n seeds/"$target"/* "$CORPUS/$target/" 2>/dev/null || true
    [ -d "$SHARED" ] || continue
    case "$target" in
    url_parse | diff_ada | canon | url_setters | search_params)
        i=0
        url_lines 2500 | while IFS= read -r url; do
            i=$((i + 1))
            printf '%s' "$url" | seed "$target" "url-$i"
        done
        ;;
    tokenizer_chunks | tree_builder)
        html5lib_inputs "$CORPUS/$target" '\001\000'
        pages trafilatura 12 "$target" '\000\000'
        pages jsoup 5 "$target" '\000\003\001\007\100'
        ;;
    tree_parallel)
        # Cuts at 5 and 64; at 300, 900 and 2000.
        html5lib_inputs "$CORPUS/$target" '\000\002\005\000\100\000'
        pages trafilatura 12 "$target" '\000\003\054\001\204\003\320\007'
        # The parser's own chunk starts (flag bit 1).
        pages jsoup 5 "$target" '\002\000'
        ;;
    render_pieces)
        # Pieces of 1 node or so (html5lib), of 16 and of 200 (pages); a
        # fragment, scripting and noscript text (flags 7).
        html5lib_inputs "$CORPUS/$target" '\000\000'
        pages trafilatura 12 "$target" '\000\017'
        pages jsoup 5 "$target" '\007\307'
        ;;
    encoding)
        pages chardet 40 "$target" '\002\000\000\000'
        ;;
    extract)
        pages trafilatura 20 "$target" 'https://example.com/dir/page.html\000text/html\000\000\000'
        pages aeb 10 "$target" 'http://example.org/\000\000/moved\000</style.css>; rel=stylesheet\000'
        ;;
    text)
        # Main content, plain (flags 1) and Markdown with links (flags 7).
        pages trafilatura 12 "$target" '\001https://example.com/a/b.html\000\000'
        pages jsoup 5 "$target" '\007https://example.com/\000text/html; charset=windows-1252\000'
        ;;
    warc)
        find "$SHARED/corpus/warc" -type f \( -name '*.warc' -o -name '*.arc' -o -name '*.warc.gz' -o -name '*.arc.gz' \) -size -48k |
            sort | while read -r file; do
                # Plain bytes (gzip members are the target's flag bit 0).
                { printf '\000\000\000'; gzip -dcf "$file" 2>/dev/null | head -c 8192; } | seed warc "$(basename "$file")"
            done
        ;;
    wat)
        # WARC files (flag bit 0) and pages.
        find "$SHARED/corpus/warc" -type f \( -name '*.warc' -o -name '*.arc' -o -name '*.warc.gz' -o -name '*.arc.gz' \) -size -48k |
            sort | while read -r file; do
                { printf '\001'; gzip -dcf "$file" 2>/dev/null | head -c 8192; } | seed wat "$(basename "$file")"
            done
        pages trafilatura 20 "$target" '\000'
        ;;
    index)
        find "$SHARED/corpus/warc" -type f \( -name '*.warc' -o -name '*.arc' -o -name '*.warc.gz' -o -name '*.arc.gz' \) -size -48k |
            sort | while read -r file; do
                # Plain bytes, POST bodies folded (flag bit 2); gzip
                # members are flag bit 0.
                { printf '\004\000'; gzip -dcf "$file" 2>/dev/null | head -c 8192; } | seed index "$(basename "$file")"
            done
        ;;
    esac
done
