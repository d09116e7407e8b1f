# One IAM role per Jacobian role, assumable only through EKS IRSA by that role's ServiceAccount.
# Permissions follow the artifact layout under the prefix (and under tenants/<tenant>/):
#   api      reads everything, writes nothing;
#   runner   reads everything, writes blobs/ and manifests/;
#   checker  reads everything, writes records/ (verification records) and nothing else.
# No role may delete. Multipart uploads need AbortMultipartUpload and ListMultipartUploadParts on
# the keys a role writes. The bucket policy (artifact_bucket module) additionally denies record
# writes to everyone but the checker.

locals {
  prefix = var.prefix == "" || endswith(var.prefix, "/") ? var.prefix : "${var.prefix}/"
}

# ---------------------------------------------------------------------------------------------
# Trust: the cluster's OIDC provider, one ServiceAccount per role.

data "aws_iam_policy_document" "api_trust" {
  statement {
    sid     = "JacobianApiServiceAccount"
    effect  = "Allow"
    actions = ["sts:AssumeRoleWithWebIdentity"]

    principals {
      type        = "Federated"
      identifiers = [var.oidc_provider_arn]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:sub"
      values   = ["system:serviceaccount:${var.namespace}:jacobian-api"]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

data "aws_iam_policy_document" "runner_trust" {
  statement {
    sid     = "JacobianRunnerServiceAccount"
    effect  = "Allow"
    actions = ["sts:AssumeRoleWithWebIdentity"]

    principals {
      type        = "Federated"
      identifiers = [var.oidc_provider_arn]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:sub"
      values   = ["system:serviceaccount:${var.namespace}:jacobian-runner"]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

data "aws_iam_policy_document" "checker_trust" {
  statement {
    sid     = "JacobianCheckerServiceAccount"
    effect  = "Allow"
    actions = ["sts:AssumeRoleWithWebIdentity"]

    principals {
      type        = "Federated"
      identifiers = [var.oidc_provider_arn]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:sub"
      values   = ["system:serviceaccount:${var.namespace}:jacobian-checker"]
    }

    condition {
      test     = "StringEquals"
      variable = "${var.oidc_issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

# ---------------------------------------------------------------------------------------------
# Permissions.
#
# ListBucket is limited to listings under the prefix. The start-up access check (HeadBucket) also
# needs s3:ListBucket but carries no s3:prefix key, hence StringLikeIfExists.

data "aws_iam_policy_document" "api" {
  statement {
    sid       = "ListArtifactPrefix"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [var.bucket_arn]

    condition {
      test     = "StringLikeIfExists"
      variable = "s3:prefix"
      values   = ["${local.prefix}*"]
    }
  }

  statement {
    sid       = "ReadArtifacts"
    effect    = "Allow"
    actions   = ["s3:GetObject"]
    resources = ["${var.bucket_arn}/${local.prefix}*"]
  }

  statement {
    sid       = "DecryptArtifacts"
    effect    = "Allow"
    actions   = ["kms:Decrypt"]
    resources = [var.kms_key_arn]
  }
}

data "aws_iam_policy_document" "runner" {
  statement {
    sid       = "ListArtifactPrefix"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [var.bucket_arn]

    condition {
      test     = "StringLikeIfExists"
      variable = "s3:prefix"
      values   = ["${local.prefix}*"]
    }
  }

  statement {
    sid       = "ReadArtifacts"
    effect    = "Allow"
    actions   = ["s3:GetObject"]
    resources = ["${var.bucket_arn}/${local.prefix}*"]
  }

  statement {
    sid     = "WriteArtifacts"
    effect  = "Allow"
    actions = ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"]
    resources = [
      "${var.bucket_arn}/${local.prefix}blobs/*",
      "${var.bucket_arn}/${local.prefix}manifests/*",
      "${var.bucket_arn}/${local.prefix}tenants/*/blobs/*",
      "${var.bucket_arn}/${local.prefix}tenants/*/manifests/*",
    ]
  }

  # In an ARN a '*' also matches '/', so tenants/*/blobs/* would match
  # tenants/<tenant>/records/blobs/...; records stay the checker's alone.
  statement {
    sid     = "NeverWriteRecords"
    effect  = "Deny"
    actions = ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"]
    resources = [
      "${var.bucket_arn}/${local.prefix}records/*",
      "${var.bucket_arn}/${local.prefix}tenants/*/records/*",
    ]
  }

  statement {
    sid       = "EncryptArtifacts"
    effect    = "Allow"
    actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
    resources = [var.kms_key_arn]
  }
}

data "aws_iam_policy_document" "checker" {
  statement {
    sid       = "ListArtifactPrefix"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [var.bucket_arn]

    condition {
      test     = "StringLikeIfExists"
      variable = "s3:prefix"
      values   = ["${local.prefix}*"]
    }
  }

  statement {
    sid       = "ReadArtifacts"
    effect    = "Allow"
    actions   = ["s3:GetObject"]
    resources = ["${var.bucket_arn}/${local.prefix}*"]
  }

  statement {
    sid     = "WriteVerificationRecords"
    effect  = "Allow"
    actions = ["s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"]
    resources = [
      "${var.bucket_arn}/${local.prefix}records/*",
      "${var.bucket_arn}/${local.prefix}tenants/*/records/*",
    ]
  }

  statement {
    sid       = "EncryptArtifacts"
    effect    = "Allow"
    actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
    resources = [var.kms_key_arn]
  }
}

# ---------------------------------------------------------------------------------------------
# Roles.

resource "aws_iam_role" "api" {
  name                 = "${var.name_prefix}-api"
  description          = "Jacobian api (ServiceAccount ${var.namespace}/jacobian-api): reads artifacts"
  assume_role_policy   = data.aws_iam_policy_document.api_trust.json
  max_session_duration = 3600
}

resource "aws_iam_role_policy" "api" {
  name   = "jacobian-artifacts"
  role   = aws_iam_role.api.id
  policy = data.aws_iam_policy_document.api.json
}

resource "aws_iam_role" "runner" {
  name                 = "${var.name_prefix}-runner"
  description          = "Jacobian runners (ServiceAccount ${var.namespace}/jacobian-runner): read artifacts, write blobs and manifests"
  assume_role_policy   = data.aws_iam_policy_document.runner_trust.json
  max_session_duration = 3600
}

resource "aws_iam_role_policy" "runner" {
  name   = "jacobian-artifacts"
  role   = aws_iam_role.runner.id
  policy = data.aws_iam_policy_document.runner.json
}

resource "aws_iam_role" "checker" {
  name                 = "${var.name_prefix}-checker"
  description          = "Jacobian checker (ServiceAccount ${var.namespace}/jacobian-checker): reads artifacts, writes verification records"
  assume_role_policy   = data.aws_iam_policy_document.checker_trust.json
  max_session_duration = 3600
}

resource "aws_iam_role_policy" "checker" {
  name   = "jacobian-artifacts"
  role   = aws_iam_role.checker.id
  policy = data.aws_iam_policy_document.checker.json
}
