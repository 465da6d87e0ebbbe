//! The simulator test's short inputs (tests/simulator.rs, `snippets` and
//! `harness_sees_disagreements`): where the simulator must agree with the
//! tree builder, and its documented limitations, each with a minimal repro.

use super::super::Class;

/// Short inputs where the simulator must agree with the tree builder, and
/// how many raw-text elements each side must see.
pub const AGREEING: &[(&str, usize)] = &[
    (
        "<title>a &amp; b</title><textarea>\nx</textarea><xmp>a<b></xmp>",
        3,
    ),
    (
        "<iframe>a<b></iframe><noembed>a<b></noembed><noframes>a<b></noframes>",
        3,
    ),
    (
        "<noscript><style>a</style></noscript><plaintext>a</plaintext><b>",
        2,
    ),
    ("</html><title>x</title><style>y</style>", 2),
    ("<table><textarea>a</textarea><style>b</style></table>", 2),
    ("<template><style>a</style><title>b</title></template>", 2),
    (
        "<select><style>a</style><title>t</title><script>s</script><textarea>x</textarea>",
        4,
    ),
    // Foreign content: no switch inside, integration points, breakouts.
    (
        "<svg><title>t</title><style>s</style><script>x</script></svg><style>y</style>",
        1,
    ),
    (
        "<svg><title><style>x</style></title><desc><textarea>y</textarea></desc></svg>",
        2,
    ),
    (
        "<svg><foreignObject><style>x</style></foreignObject><style>y</style></svg>",
        1,
    ),
    (
        "<math><mi><style>x</style></mi><annotation-xml encoding=\"text/html\"><style>y</style>",
        2,
    ),
    (
        "<math><annotation-xml><svg><foreignObject><style>x</style>",
        1,
    ),
    (
        "<math><annotation-xml encoding=\"text/html\"><svg><style>x</style>",
        0,
    ),
    ("<math><mtext><mglyph><style>x</style>", 0),
    ("<svg><p><style>x</style>", 1),
    (
        "<svg><font color=red><style>x</style><svg><font><style>y</style>",
        1,
    ),
    ("<svg></br><style>x</style><svg></p><style>y</style>", 2),
    ("<svg><g><desc></g><style>x</style>", 0),
    ("<math><ms><svg></ms><style>x</style>", 0),
    ("<svg/><style>x</style><math/><title>y</title>", 2),
    // End tags of HTML elements opened before the subtree.
    ("<div><svg></div><style>x</style>", 1),
    ("<div><span><svg></div><style>x</style>", 1),
    ("<p><svg></p><style>x</style>", 1),
    ("<a><svg><b></a><style>x</style>", 1),
    ("<button><svg></button><style>x</style>", 1),
    ("<table><svg></table><style>x</style>", 1),
    ("<table><tr><td><svg></tr><style>x</style>", 1),
    ("<table><svg><tr><style>x</style>", 0),
    ("<ul><li><svg><li><style>x</style>", 1),
    // End tags inside integration points.
    ("<svg><foreignObject><div></svg><style>x</style>", 1),
    ("<svg><foreignObject><p><svg></p><style>x</style>", 1),
    ("<svg><foreignObject></svg><style>x</style>", 1),
    (
        "<svg><foreignObject><math><mi></foreignObject><style>x</style>",
        0,
    ),
    ("<body><svg><foreignObject></body><style>x</style>", 1),
    // </body> and </html> never pop elements.
    ("<body><svg></body><style>x</style>", 0),
    ("<svg></html><style>x</style>", 0),
];

/// The simulator's documented limitations: a minimal repro each, with the
/// classes it shows. When the simulator learns one, move it to
/// [`AGREEING`].
pub const KNOWN_DIFFERENCES: &[(&str, &[Class], &str)] = &[
    (
        "<frameset><noframes>x</noframes><script>y</script></frameset>",
        &[Class::OnlyOurs],
        "script in a frameset document: ignored by the tree builder (insertion modes)",
    ),
    (
        "<svg></span><style>x<b>y</b></style></svg>",
        &[Class::OnlyOurs],
        "a stray end tag in foreign content is assumed to close an element opened \
         before the subtree (the simulator clears its stack)",
    ),
    (
        "<div><svg><foreignObject></div></foreignObject><style>x</style>",
        &[Class::OnlyOurs],
        "</div> is not in scope past the integration point, so the tree builder ignores it",
    ),
];
