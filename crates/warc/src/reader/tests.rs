//! Tests of the reader: buffers handed over, and what each `Content`
//! mode keeps.

mod reading {
    use crate::body::Body;
    use crate::container::tests::gz;
    use crate::reader::*;

    fn warc_record(uri: &str, html: &str) -> Vec<u8> {
        let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}");
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
             Content-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
        .into_bytes()
    }

    fn bodies(data: &[u8]) -> Vec<(String, Body)> {
        Reader::new(data)
            .map(|r| {
                let r = r.expect("a record");
                (r.target_uri.unwrap_or_default(), r.body)
            })
            .collect()
    }

    /// One record per gzip member (how crawlers write WARCs): each record
    /// takes the reader's buffer, so its payload is not copied; anything
    /// else gets a copy. The payloads are the same either way.
    #[test]
    fn a_record_alone_in_its_member_takes_the_buffer() {
        let records: Vec<Vec<u8>> = (0..3)
            .map(|i| warc_record(&format!("http://e.com/{i}"), &format!("<p>page {i}</p>")))
            .collect();
        let per_record: Vec<u8> = records.iter().flat_map(|r| gz(r)).collect();
        let got = bodies(&per_record);
        assert_eq!(got.len(), 3);
        for (i, (uri, body)) in got.iter().enumerate() {
            assert_eq!(uri, &format!("http://e.com/{i}"));
            assert_eq!(body, format!("<p>page {i}</p>").as_bytes());
            assert!(body.is_range_of_buffer(), "record {i}");
        }
        // Two records in one member (the first is copied, the second ends
        // the member), and a plain file (all copied).
        let shared = [gz(&records[..2].concat()), gz(&records[2])].concat();
        let plain = records.concat();
        for data in [&shared, &plain] {
            let got = bodies(data);
            assert_eq!(got.len(), 3);
            for (i, (_, body)) in got.iter().enumerate() {
                assert_eq!(body, format!("<p>page {i}</p>").as_bytes());
            }
        }
        let got = bodies(&shared);
        assert!(!got[0].1.is_range_of_buffer());
        assert!(got[1].1.is_range_of_buffer());
        assert!(got[2].1.is_range_of_buffer());
        assert!(bodies(&plain).iter().all(|(_, b)| !b.is_range_of_buffer()));
    }
}

mod content_tests {
    use crate::Content;
    use crate::container::tests::gz;
    use crate::reader::*;

    fn response(uri: &str, payload: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            payload.len()
        )
        .into_bytes();
        block.extend_from_slice(payload);
        let mut rec = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
             Content-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        rec.extend_from_slice(&block);
        rec.extend_from_slice(b"\r\n\r\n");
        (rec, block)
    }

    fn read(data: &[u8], content: Content, max_record_size: u64) -> Vec<Record> {
        let opts = Options {
            content,
            max_record_size,
            ..Options::default()
        };
        Reader::with_options(data, opts)
            .map(|r| r.expect("a record"))
            .collect()
    }

    /// `Block` keeps each block as stored and decodes nothing; `Head(n)`
    /// keeps its first n bytes and produces records of any size; both give
    /// the offsets and HTTP heads `Payload` gives.
    #[test]
    fn block_and_head_keep_what_they_say() {
        let big: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let recs = [
            response("http://e.com/1", b"<p>one"),
            response("http://e.com/2", &big),
            response("http://e.com/3", b"<p>three"),
        ];
        let plain: Vec<u8> = recs.iter().flat_map(|(r, _)| r.clone()).collect();
        let per_member: Vec<u8> = recs.iter().flat_map(|(r, _)| gz(r)).collect();
        for data in [&plain, &per_member] {
            let payload = read(data, Content::Payload, 64 << 20);
            let block = read(data, Content::Block, 64 << 20);
            let head = read(data, Content::Head(1024), 1000);
            assert_eq!(payload.len(), 3);
            assert_eq!(block.len(), 3);
            assert_eq!(head.len(), 3, "Head ignores max_record_size");
            for i in 0..3 {
                let want_block = &recs[i].1;
                assert_eq!(&block[i].block[..], &want_block[..]);
                assert!(block[i].body.is_empty());
                let n = want_block.len().min(1024);
                assert_eq!(&head[i].block[..], &want_block[..n]);
                assert_eq!(head[i].block_len, want_block.len() as u64);
                for r in [&block[i], &head[i]] {
                    assert_eq!(r.offset, payload[i].offset);
                    assert_eq!(r.stream_offset, payload[i].stream_offset);
                    assert_eq!(r.status(), Some(200));
                }
            }
        }
        // In a plain file the stream offset is the file offset; in a file of
        // one member it is where the record starts in the decoded data.
        let p = read(&plain, Content::Payload, 64 << 20);
        assert!(p.iter().all(|r| r.offset == r.stream_offset));
        let one_member = gz(&plain);
        let m = read(&one_member, Content::Head(64), 64 << 20);
        assert!(m.iter().all(|r| r.offset == 0));
        let starts: Vec<u64> = p.iter().map(|r| r.stream_offset).collect();
        assert_eq!(
            m.iter().map(|r| r.stream_offset).collect::<Vec<_>>(),
            starts
        );
    }

    /// A record starts (ends) its member when nothing of the record before
    /// (after) it is in that member: one member per record, yes; a file cut
    /// into gzip members of 64 bytes whatever the records (bgzip-like) or
    /// one member, only at the file's ends; a plain file, always.
    #[test]
    fn records_know_whether_they_start_their_member() {
        let recs: Vec<Vec<u8>> = (0..3)
            .map(|i| response(&format!("http://e.com/{i}"), b"<p>body").0)
            .collect();
        let per_record: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
        let plain = recs.concat();
        let chunked: Vec<u8> = plain.chunks(64).flat_map(gz).collect();
        let starts = |data: &[u8]| -> Vec<(bool, bool)> {
            read(data, Content::Head(1 << 10), 64 << 20)
                .iter()
                .map(|r| (r.starts_member, r.ends_member))
                .collect()
        };
        let all = [(true, true); 3];
        assert_eq!(starts(&per_record), all);
        assert_eq!(starts(&plain), all);
        let shared = [(true, false), (false, false), (false, true)];
        assert_eq!(starts(&chunked), shared);
        assert_eq!(starts(&gz(&plain)), shared);
    }

    /// A long record whose declared length is wrong is reported; reading
    /// resumes after its declared block and finds the next record.
    #[test]
    fn head_reports_a_long_record_with_a_bad_boundary() {
        let big = vec![b'x'; 5000];
        let (mut bad, _) = response("http://e.com/bad", &big);
        // Declared 10 bytes longer than the block: the junk after it is
        // partly swallowed, and the rest follows the declared block.
        let block_len =
            bad.len() - 4 - (bad.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4);
        let cl = format!("\r\nContent-Length: {block_len}\r\n");
        let fixed = format!("\r\nContent-Length: {}\r\n", block_len + 10);
        let at = bad
            .windows(cl.len())
            .position(|w| w == cl.as_bytes())
            .unwrap();
        bad.splice(at..at + cl.len(), fixed.bytes());
        let (good, _) = response("http://e.com/good", b"<p>ok");
        let data = [bad, b"junk junk junk\r\n".to_vec(), good].concat();
        let opts = Options {
            content: Content::Head(100),
            ..Options::default()
        };
        let items: Vec<_> = Reader::with_options(&data, opts).collect();
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(matches!(
            items[0],
            Err(RecordError::BadBoundary { offset: 0, .. })
        ));
        let last = items.last().unwrap().as_ref().expect("the good record");
        assert_eq!(last.target_uri.as_deref(), Some("http://e.com/good"));
    }
}
