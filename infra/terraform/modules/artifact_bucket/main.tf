# The artifact store: one private, versioned, KMS-encrypted bucket. Jacobian writes content-addressed
# objects (blobs/, manifests/) and signed verification records (records/) under `prefix`, and the
# same layout under `prefix`tenants/<tenant>/ for each named tenant.

locals {
  # Jacobian appends '/' to a non-empty S3_PREFIX; the policies must use the same key prefix.
  prefix = var.prefix == "" || endswith(var.prefix, "/") ? var.prefix : "${var.prefix}/"
}

resource "aws_kms_key" "artifacts" {
  description             = "Encrypts the Jacobian artifact bucket ${var.bucket_name}"
  enable_key_rotation     = true
  deletion_window_in_days = var.kms_key_deletion_window_days
}

resource "aws_kms_alias" "artifacts" {
  # Alias names allow letters, digits, '/', '_' and '-', but no '.'.
  name          = "alias/${replace(var.bucket_name, ".", "-")}"
  target_key_id = aws_kms_key.artifacts.key_id
}

resource "aws_s3_bucket" "artifacts" {
  bucket        = var.bucket_name
  force_destroy = var.force_destroy
}

resource "aws_s3_bucket_public_access_block" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_versioning" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.artifacts.arn
    }
    # One data key per bucket instead of one KMS call per object.
    bucket_key_enabled = true
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id

  rule {
    id     = "abort-incomplete-multipart-uploads"
    status = "Enabled"

    filter {}

    abort_incomplete_multipart_upload {
      days_after_initiation = var.abort_incomplete_multipart_upload_days
    }
  }

  rule {
    id     = "expire-noncurrent-versions"
    status = "Enabled"

    filter {}

    noncurrent_version_expiration {
      noncurrent_days = var.noncurrent_version_expiration_days
    }

    # Delete markers left with no versions behind them are removed too.
    expiration {
      expired_object_delete_marker = true
    }
  }

  dynamic "rule" {
    for_each = var.temporary_prefixes
    content {
      id     = "expire-temporary-${rule.key}"
      status = "Enabled"

      filter {
        prefix = rule.value
      }

      expiration {
        days = var.temporary_object_expiration_days
      }
    }
  }

  # Lifecycle rules on noncurrent versions need versioning in place first.
  depends_on = [aws_s3_bucket_versioning.artifacts]
}

data "aws_iam_policy_document" "bucket" {
  statement {
    sid     = "DenyInsecureTransport"
    effect  = "Deny"
    actions = ["s3:*"]
    resources = [
      aws_s3_bucket.artifacts.arn,
      "${aws_s3_bucket.artifacts.arn}/*",
    ]

    principals {
      type        = "*"
      identifiers = ["*"]
    }

    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }

  # Verification records are trusted because only the checker signs and writes them. This deny holds
  # even if someone later attaches a broader identity policy to another role or user.
  statement {
    sid     = "DenyRecordWritesExceptRecordWriters"
    effect  = "Deny"
    actions = ["s3:PutObject"]
    resources = [
      "${aws_s3_bucket.artifacts.arn}/${local.prefix}records/*",
      "${aws_s3_bucket.artifacts.arn}/${local.prefix}tenants/*/records/*",
    ]

    principals {
      type        = "*"
      identifiers = ["*"]
    }

    condition {
      test     = "ArnNotEquals"
      variable = "aws:PrincipalArn"
      values   = var.record_writer_role_arns
    }
  }
}

resource "aws_s3_bucket_policy" "artifacts" {
  bucket = aws_s3_bucket.artifacts.id
  policy = data.aws_iam_policy_document.bucket.json

  # S3 rejects a bucket policy while the public access block is being changed.
  depends_on = [aws_s3_bucket_public_access_block.artifacts]
}
