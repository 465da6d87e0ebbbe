#!/usr/bin/env python3
"""Helper of run.sh (remote-read benchmark); measures nothing.
Creates a bucket on an S3 endpoint (moto server) and uploads files with boto3.
usage: s3_upload.py ENDPOINT BUCKET FILE[=KEY] [FILE[=KEY]...]
       s3_upload.py ENDPOINT BUCKET --prefix FILE BYTES KEY   (upload the first BYTES of FILE)
Credentials: AWS_ACCESS_KEY_ID=testing etc. from the environment."""
import sys, time, io
import boto3
from boto3.s3.transfer import TransferConfig

ep, bucket, *rest = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=ep, region_name="us-east-1")
try:
    s3.create_bucket(Bucket=bucket)
except s3.exceptions.BucketAlreadyOwnedByYou:
    pass
cfg = TransferConfig(multipart_threshold=64 << 20, multipart_chunksize=64 << 20, max_concurrency=4)
t = time.time()
if rest and rest[0] == "--prefix":
    path, n, key = rest[1], int(rest[2]), rest[3]
    with open(path, "rb") as f:
        data = f.read(n)
    s3.put_object(Bucket=bucket, Key=key, Body=data)
    print(f"uploaded {len(data)} bytes of {path} as s3://{bucket}/{key}", file=sys.stderr)
else:
    for spec in rest:
        path, _, key = spec.partition("=")
        key = key or path.rsplit("/", 1)[-1]
        s3.upload_file(path, bucket, key, Config=cfg)
        head = s3.head_object(Bucket=bucket, Key=key)
        print(f"uploaded {path} as s3://{bucket}/{key} ({head['ContentLength']} bytes)", file=sys.stderr)
print(f"upload took {time.time() - t:.1f} s", file=sys.stderr)
