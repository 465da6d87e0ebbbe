//! Hand-made pages of each type: what the classifier says, and what main
//! content keeps and drops for each — a listing of 20 items, a forum thread
//! with quoted posts, a product with a specification table (and other
//! products and reviews left out), a
//! documentation page with code, a service page of sections, a shop's
//! grid, and an article next to all of them.

use spinneret_text::{Format, Options, Page, PageType, extract_page};

const NAV: &str = "<header><nav><a href=/>Home</a> <a href=/about>About us</a> \
    <a href=/contact>Contact</a> <a href=/login>Log in</a></nav></header>";
const FOOTER: &str = "<footer><p>Copyright 2026 Example Media Group. All rights reserved.</p>\
    <a href=/privacy>Privacy policy</a></footer>";

fn page(body: &str) -> String {
    format!(
        "<!doctype html><html lang=en><head><title>T</title></head><body>{NAV}{body}{FOOTER}</body></html>"
    )
}

fn extract(html: &str, url: &str, format: Format) -> (PageType, String) {
    let page = Page {
        url: Some(url),
        ..Page::new(html.as_bytes())
    };
    let out = extract_page(
        &page,
        &Options {
            main_content: true,
            format,
            ..Options::default()
        },
    );
    (out.page_type, out.text)
}

fn assert_boilerplate_dropped(text: &str) {
    for gone in ["About us", "Log in", "Copyright 2026", "Privacy policy"] {
        assert!(!text.contains(gone), "{gone:?} kept in {text}");
    }
}

#[test]
fn a_listing_keeps_every_item_title_teaser_and_date() {
    let items: String = (1..=20)
        .map(|i| {
            format!(
                "<article class=card><h3><a href=/stories/{i}>Story number {i} about the river valley</a></h3>\
                 <p>Teaser {i}: what happened on the farms this week.</p><time>May {i}, 2026</time></article>"
            )
        })
        .collect();
    let html = page(&format!(
        "<main><h1>Latest stories</h1><p>Our newsroom's reporting from the valley.</p>\
         <section class=stories>{items}</section></main>"
    ));
    let (t, text) = extract(&html, "https://news.example/", Format::Text);
    assert_eq!(t, PageType::Listing);
    for i in 1..=20 {
        assert!(
            text.contains(&format!("Story number {i} about")),
            "title {i}"
        );
        assert!(text.contains(&format!("Teaser {i}:")), "teaser {i}");
        assert!(text.contains(&format!("May {i}, 2026")), "date {i}");
    }
    assert!(text.contains("Our newsroom's reporting"));
    assert_boilerplate_dropped(&text);
}

#[test]
fn a_consent_dialog_longer_than_the_page_stays_out() {
    let items: String = (1..=8)
        .map(|i| format!("<li><a href=/recipes/{i}>Tomato sauce recipe number {i}</a></li>"))
        .collect();
    let purposes: String = (1..=12)
        .map(|i| {
            format!(
                "<h4>Purpose {i}</h4><p>Information about your activity on this service can be \
                 stored and combined with other information about you to build a profile for \
                 purpose {i}, which our partners use to select what you are shown.</p>"
            )
        })
        .collect();
    let html = page(&format!(
        "<main><h1>Tomato sauce recipes</h1><p>Our collection of sauces for every dish.</p>\
         <ul class=recipes>{items}</ul></main>\
         <div id=onetrust-consent-sdk><div id=onetrust-pc-sdk><h3>Privacy Preference Center</h3>\
         {purposes}</div></div>"
    ));
    let (_, text) = extract(&html, "https://recipes.example/tomato-sauces", Format::Text);
    assert!(text.contains("Our collection of sauces"), "{text}");
    assert!(
        !text.contains("Purpose 3"),
        "the consent dialog kept in {text}"
    );
}

#[test]
fn a_forum_thread_keeps_every_post_with_its_quotes() {
    let posts: String = (1..=6)
        .map(|i| {
            let quote = if i > 1 {
                format!("<blockquote>Post {} said the pump was fine.</blockquote>", i - 1)
            } else {
                String::new()
            };
            format!(
                "<div class=topic-post><div class=user-card><a href=/u/user{i}>user{i}</a> \
                 <span>Joined 2019</span></div><div class=cooked>{quote}<p>Reply {i}: I replaced \
                 the seal on my pump and it has run quietly ever since, thanks for the tip.</p></div>\
                 <button>Reply</button> <button>Quote</button><time>2026-05-0{i}</time></div>"
            )
        })
        .collect();
    let html = page(&format!("<main><h1>My pump is noisy</h1>{posts}</main>"));
    let (t, text) = extract(
        &html,
        "https://forum.example.org/t/noisy-pump/4711",
        Format::Text,
    );
    assert_eq!(t, PageType::Forum);
    for i in 1..=6 {
        assert!(
            text.contains(&format!("Reply {i}: I replaced")),
            "post {i} in {text}"
        );
    }
    assert!(text.contains("Post 3 said the pump was fine."), "a quote");
    assert_boilerplate_dropped(&text);
}

#[test]
fn a_forum_leaves_out_the_quotes_it_marks_as_quotes_of_other_posts() {
    let posts: String = (1..=4)
        .map(|i| {
            let quote = if i > 1 {
                format!(
                    "<blockquote class=\"bbCodeBlock bbCodeBlock--quote\"><div>user{} said:</div>\
                     Post {} said the pump was fine.</blockquote>",
                    i - 1,
                    i - 1
                )
            } else {
                String::new()
            };
            format!(
                "<article class=message><div class=message-content>{quote}<p>Reply {i}: I \
                 replaced the seal on my pump and it has run quietly ever since.</p></div>\
                 <time>2026-05-0{i}</time></article>"
            )
        })
        .collect();
    let html = page(&format!("<main><h1>My pump is noisy</h1>{posts}</main>"));
    let (t, text) = extract(
        &html,
        "https://forum.example.org/threads/noisy-pump.4711/",
        Format::Text,
    );
    assert_eq!(t, PageType::Forum);
    for i in 1..=4 {
        assert!(text.contains(&format!("Reply {i}: I replaced")), "{text}");
    }
    assert!(
        !text.contains("said the pump was fine"),
        "a quote kept in {text}"
    );
}

#[test]
fn a_product_keeps_its_description_and_specification_table() {
    let html = page(
        r#"<script type="application/ld+json">{"@type":"Product","name":"Kettle K2","offers":{"@type":"Offer","price":"49.00"}}</script>
        <main><div class=product><h1>Kettle K2</h1><p class=price>$49.00</p>
        <button class=add-to-cart>Add to cart</button>
        <div class=description><p>A steel kettle that boils a litre in three minutes, with a
        base that turns all the way round and a lid that opens with one hand.</p>
        <p>The handle stays cool, and the kettle switches itself off when it is dry.</p></div>
        <h2>Specifications</h2><table><tr><th>Property</th><th>Value</th></tr>
        <tr><td>Capacity</td><td>1.7 l</td></tr><tr><td>Power</td><td>2200 W</td></tr>
        <tr><td>Weight</td><td>1.1 kg</td></tr></table></div>
        <section><h2>Customers also viewed</h2><ul><li><a href=/p/1>Toaster T1</a> $29.00</li>
        <li><a href=/p/2>Mug set</a> $12.00</li></ul></section></main>"#,
    );
    let (t, md) = extract(&html, "https://shop.example/kettle-k2", Format::Markdown);
    assert_eq!(t, PageType::Product);
    assert!(md.contains("boils a litre in three minutes"), "{md}");
    assert!(md.contains("switches itself off"), "{md}");
    assert!(md.contains("| Capacity | 1.7 l |"), "a pipe table in {md}");
    assert!(md.contains("| Power | 2200 W |"), "{md}");
    assert!(!md.contains("Toaster T1"), "a related product kept in {md}");
    assert_boilerplate_dropped(&md);
}

#[test]
fn a_product_drops_other_products_and_reviews_without_a_heading() {
    let similar: String = (1..=6)
        .map(|i| {
            format!(
                "<li class=card><a href=/p/{i}>Steel kettle, another model number {i}</a>\
                 <span>${i}9.00</span><span>Free delivery</span></li>"
            )
        })
        .collect();
    let html = page(&format!(
        r#"<script type="application/ld+json">{{"@type":"Product","name":"Kettle K2"}}</script>
        <main><h1>Kettle K2</h1><p class=price>$49.00</p>
        <div class=description><p>A steel kettle that boils a litre in three minutes, with a
        base that turns all the way round and a lid that opens with one hand.</p>
        <p>The handle stays cool, and the kettle switches itself off when it is dry. The
        filter lifts out for cleaning, and the water gauge shows on both sides.</p>
        <ul><li>Capacity: 1.7 l</li><li>Power: 2200 W</li><li>Weight: 1.1 kg</li></ul></div>
        <ul class=carousel>{similar}</ul>
        <div class=product-reviews><h3>8 Reviews</h3><p>Great kettle, boils fast and the
        handle really does stay cool.</p><p>Mine leaked after a week.</p></div></main>"#
    ));
    let (t, text) = extract(&html, "https://shop.example/kettle-k2", Format::Text);
    assert_eq!(t, PageType::Product);
    assert!(text.contains("boils a litre in three minutes"), "{text}");
    assert!(text.contains("Power: 2200 W"), "{text}");
    assert!(
        !text.contains("another model"),
        "another product kept in {text}"
    );
    assert!(!text.contains("Mine leaked"), "a review kept in {text}");
    assert_boilerplate_dropped(&text);
}

#[test]
fn a_product_keeps_the_features_that_follow_its_also_bought_row() {
    let also: String = (1..=4)
        .map(|i| format!("<li><a href=/p/{i}>Strap model {i}</a> <span>${i}5.00</span></li>"))
        .collect();
    let html = page(&format!(
        r#"<script type="application/ld+json">{{"@type":"Product","name":"Leather Case"}}</script>
        <main><div class=summary><h1>Leather Case</h1><p>Rugged protection and a leather that
        wears in, for the phone you carry every day.</p><p class=price>$59.00</p></div>
        <div><div><h3>You May Also Like</h3></div><ul class=row>{also}</ul>
        <section><h2>Made for MagSafe</h2><p>Built with an array of neodymium magnets, the case
        snaps to chargers and mounts and holds on through bumps in the road and drops from the
        desk. The magnets are set into the back so the leather stays flat, and they line the
        case up with the charger every time.</p></section>
        <section><h2>Drop protection</h2><p>A raised bumper around the edges and the camera
        keeps the screen off the floor, tested to eight feet on concrete from every side. The
        buttons are machined aluminium and click the way the phone's own buttons do, with a
        lining that keeps dust out.</p>
        </section></div></main>"#
    ));
    let (t, text) = extract(&html, "https://shop.example/leather-case", Format::Text);
    assert_eq!(t, PageType::Product);
    assert!(text.contains("neodymium magnets"), "{text}");
    assert!(text.contains("tested to eight feet"), "{text}");
    assert!(
        !text.contains("Strap model"),
        "another product kept in {text}"
    );
}

#[test]
fn documentation_keeps_headings_code_and_tables() {
    let sidebar: String = (1..=30)
        .map(|i| format!("<li><a href=/docs/page{i}>Chapter {i}</a></li>"))
        .collect();
    let html = page(&format!(
        "<div class=docs-sidebar><ul>{sidebar}</ul></div><main><article>\
         <h1>Reading a file</h1><p>Open the file, then read it to the end; the whole \
         content comes back as one string, and an error says why it could not be read.</p>\
         <pre><code class=\"language-rust\">let text = std::fs::read_to_string(\"notes.txt\")?;\n\
         println!(\"{{text}}\");</code></pre><h2>Errors</h2><table><tr><th>Kind</th><th>When</th></tr>\
         <tr><td>NotFound</td><td>the file is missing</td></tr></table>\
         <p>Use <code>read</code> for bytes.</p><pre><code>cargo run</code></pre>\
         <pre><code>cargo test</code></pre></article></main>"
    ));
    let (t, md) = extract(
        &html,
        "https://example.com/docs/io/reading",
        Format::Markdown,
    );
    assert_eq!(t, PageType::Documentation);
    assert!(md.contains("# Reading a file"), "{md}");
    assert!(md.contains("## Errors"), "{md}");
    assert!(
        md.contains("```rust\nlet text = std::fs::read_to_string(\"notes.txt\")?;"),
        "a fenced block with its language in {md}"
    );
    assert!(md.contains("| NotFound | the file is missing |"), "{md}");
    assert!(!md.contains("Chapter 17"), "the sidebar kept in {md}");
    assert_boilerplate_dropped(&md);
}

#[test]
fn documentation_keeps_every_tab_and_sections_named_after_their_headings() {
    let sidebar: String = (1..=30)
        .map(|i| format!("<li><a href=/docs/page{i}>Guide {i}</a></li>"))
        .collect();
    let html = page(&format!(
        "<div class=docs-sidebar><ul>{sidebar}</ul></div><main><article>\
         <h1>Send a message</h1><p>Install the library for your language, then send your \
         first message from the command line in a few steps.</p>\
         <div role=tablist><button role=tab>Python</button><button role=tab>Node.js</button></div>\
         <div role=tabpanel><p>Install the Python package with pip.</p>\
         <pre><code>pip install messages</code></pre></div>\
         <div role=tabpanel hidden style=\"display:none\"><p>Install the Node.js package \
         with npm.</p><pre><code>npm install messages</code></pre></div>\
         <section id=receive-and-reply-to-an-inbound-message-section><h2>Receive and reply to \
         an inbound message</h2><p>Point your number's webhook at your server; each message \
         that arrives is posted to it, and what the server answers is sent back.</p></section>\
         </article></main><div role=dialog hidden><p>Rate this page: was it helpful?</p></div>"
    ));
    let (t, text) = extract(
        &html,
        "https://example.com/docs/messages/quickstart",
        Format::Text,
    );
    assert_eq!(t, PageType::Documentation);
    for kept in [
        "Install the Python package with pip.",
        "Install the Node.js package with npm.",
        "npm install messages",
        "Point your number's webhook at your server",
    ] {
        assert!(text.contains(kept), "{kept:?} missing from {text}");
    }
    assert!(
        !text.contains("Rate this page"),
        "a hidden dialog kept in {text}"
    );
    assert!(!text.contains("Guide 17"), "the sidebar kept in {text}");
}

#[test]
fn a_service_page_keeps_an_accordion_marked_as_a_tab_list() {
    let html = page(
        "<main><section class=hero><h1>Smart thermostat rebates</h1>\
         <p>Get up to $100 back when you buy a certified smart thermostat and send us the form.</p>\
         <p>A thermostat that learns your schedule heats and cools the house only when someone \
         is home, and a certified model saves about eight percent on heating and cooling each \
         year: about fifty dollars for most households, more in colder places.</p></section><div class=accordion role=tablist>\
         <div class=accordion-item role=tab><h3>Who qualifies?</h3></div>\
         <div class=accordion-body><p>Customers with an active residential account; commercial \
         properties are not eligible for this rebate.</p></div>\
         <div class=accordion-item role=tab><h3>How long do I have?</h3></div>\
         <div class=accordion-body><p>Send the claim within 120 days of the purchase, with the \
         receipt showing the day, month and year.</p></div></div>\
         <section class=contact><p>Call us at 1-800-555-0100 on weekdays.</p></section></main>",
    );
    let (_, text) = extract(
        &html,
        "https://energy.example/smart-thermostats",
        Format::Text,
    );
    for kept in [
        "Get up to $100 back",
        "commercial properties are not eligible",
        "Send the claim within 120 days",
    ] {
        assert!(text.contains(kept), "{kept:?} missing from {text}");
    }
    assert_boilerplate_dropped(&text);
}

#[test]
fn a_service_page_keeps_all_its_sections() {
    let html = page(
        "<main><section class=hero><h1>Payroll without the paperwork</h1>\
         <p>Pay your team in minutes, in every state, with taxes filed for you.</p>\
         <a href=/signup>Get started</a></section>\
         <section class=features><h2>Features</h2><div><h3>Automatic taxes</h3>\
         <p>We file federal, state and local taxes every quarter.</p></div><div><h3>Benefits</h3>\
         <p>Health, dental and retirement plans from one screen.</p></div></section>\
         <section class=pricing><h2>Pricing</h2><p>Simple: $40 a month plus $6 a person.</p>\
         <a href=/demo>Book a demo</a></section>\
         <section class=faq><h2>Questions</h2><h3>Can I switch mid-year?</h3>\
         <p>Yes: we import your year-to-date payroll for you.</p></section></main>",
    );
    let (t, text) = extract(&html, "https://payroll.example/", Format::Text);
    assert_eq!(t, PageType::Service);
    for kept in [
        "Pay your team in minutes",
        "We file federal, state and local taxes",
        "Health, dental and retirement plans",
        "$40 a month plus $6 a person",
        "we import your year-to-date payroll",
    ] {
        assert!(text.contains(kept), "{kept:?} missing from {text}");
    }
    assert_boilerplate_dropped(&text);
}

#[test]
fn a_service_page_keeps_its_collapsed_faq_answers() {
    let html = page(
        "<main><section class=hero><h1>Pet insurance</h1><p>Help protect your pet and your \
         budget from unexpected vet bills, with plans for dogs and cats of every age.</p>\
         <p>Plans reimburse up to ninety percent of eligible vet bills after the deductible.</p>\
         </section><section><h2>Questions</h2>\
         <button aria-controls=a1>Do I need a network vet?</button>\
         <div id=a1 class=faq__answer style=\"display: none;\"><p>No: any licensed vet in \
         the country will do, and you file the claim yourself.</p></div>\
         <h3 id=h2>Does it cover routine care?</h3>\
         <div role=region aria-labelledby=h2 aria-hidden=true><p>Wellness plans reimburse \
         vaccines and checkups; the base plan covers accidents and illness.</p></div>\
         </section></main><div role=dialog aria-labelledby=d1 hidden><h2 id=d1>Leave this \
         site?</h2><p>You are leaving for a partner's page.</p></div>",
    );
    let (_, text) = extract(
        &html,
        "https://insurer.example/pet-insurance/",
        Format::Text,
    );
    for kept in [
        "Help protect your pet",
        "any licensed vet in the country will do",
        "Wellness plans reimburse vaccines",
    ] {
        assert!(text.contains(kept), "{kept:?} missing from {text}");
    }
    assert!(
        !text.contains("Leave this site"),
        "a hidden dialog kept in {text}"
    );
}

#[test]
fn a_collection_keeps_its_products_names_and_prices() {
    let cards: String = (1..=12)
        .map(|i| {
            format!(
                "<div class=product-card><a href=/products/kettle-{i}>Steel kettle model {i}</a>\
                 <span class=price>${i}9.00</span></div>"
            )
        })
        .collect();
    let html = page(&format!(
        "<main><h1>Kettles</h1><p>12 products</p><div class=grid>{cards}</div>\
         <p>Our kettles boil fast and switch off when dry.</p></main>"
    ));
    let (t, text) = extract(
        &html,
        "https://shop.example/collections/kettles",
        Format::Text,
    );
    assert_eq!(t, PageType::Collection);
    for i in 1..=12 {
        assert!(
            text.contains(&format!("Steel kettle model {i}")),
            "card {i} in {text}"
        );
        assert!(text.contains(&format!("${i}9.00")), "price {i}");
    }
    assert_boilerplate_dropped(&text);
}

#[test]
fn an_article_is_its_story_alone() {
    let related: String = (1..=5)
        .map(|i| format!("<li><a href=/r/{i}>Another story {i}</a></li>"))
        .collect();
    let html = page(&format!(
        "<meta property=og:type content=article><main><article><h1>Rain in the valley</h1>\
         <p>It rained all day in the valley, and the river rose by a metre, which the farmers \
         had feared since spring.</p><p>By evening the water had reached the old mill, where \
         it stopped, a hand's breadth below the door.</p></article>\
         <aside><h2>Related</h2><ul>{related}</ul></aside></main>"
    ));
    let (t, text) = extract(&html, "https://news.example/2026/05/rain", Format::Text);
    assert_eq!(t, PageType::Article);
    assert!(text.contains("the river rose by a metre"));
    assert!(text.contains("a hand's breadth below the door"));
    assert!(!text.contains("Another story"), "{text}");
    assert_boilerplate_dropped(&text);
}

#[test]
fn an_article_a_script_unhides_is_found_and_a_hidden_dialog_stays_out() {
    let html = page(
        "<meta property=og:type content=article>\
         <div hidden id=app><article><h1>Rain in the valley</h1>\
         <p>It rained all day in the valley, and the river rose by a metre, which the farmers \
         had feared since spring.</p><p>By evening the water had reached the old mill, where \
         it stopped, a hand's breadth below the door.</p></article></div>\
         <div hidden class=panel><p>Thank you for signing up to our weekly letter.</p></div>",
    );
    let (_, whole) = extract_whole(&html);
    assert!(
        !whole.contains("the river rose"),
        "hidden from the whole page: {whole}"
    );
    let (t, text) = extract(&html, "https://news.example/2026/05/rain", Format::Text);
    assert_eq!(t, PageType::Article);
    assert!(text.contains("the river rose by a metre"), "{text}");
    assert!(text.contains("a hand's breadth below the door"), "{text}");
    assert!(!text.contains("Thank you for signing up"), "{text}");
    assert_boilerplate_dropped(&text);
}

/// The whole page's text (no main content).
fn extract_whole(html: &str) -> (PageType, String) {
    let out = extract_page(&Page::new(html.as_bytes()), &Options::default());
    (out.page_type, out.text)
}
