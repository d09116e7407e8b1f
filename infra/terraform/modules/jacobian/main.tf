# Jacobian on AWS, one environment: the artifact bucket, managed Redis and the IRSA roles of the
# three roles, wired to an existing EKS cluster. envs/dev and envs/prod call this module with their
# own values; everything in which they differ is a variable (see ../../README.md).

locals {
  name        = "jacobian-${var.environment}"
  cluster     = data.aws_eks_cluster.this
  oidc_issuer = local.cluster.identity[0].oidc[0].issuer
}

data "aws_eks_cluster" "this" {
  name = var.eks_cluster_name
}

data "aws_iam_openid_connect_provider" "cluster" {
  url = local.oidc_issuer
}

module "artifact_bucket" {
  source = "../artifact_bucket"

  bucket_name = var.artifact_bucket_name
  prefix      = var.s3_prefix
  # Only the checker identity may write verification records.
  record_writer_role_arns = [module.workload_identity.checker_role_arn]

  temporary_prefixes                     = var.temporary_prefixes
  temporary_object_expiration_days       = var.temporary_object_expiration_days
  noncurrent_version_expiration_days     = var.noncurrent_version_expiration_days
  abort_incomplete_multipart_upload_days = var.abort_incomplete_multipart_upload_days
  kms_key_deletion_window_days           = var.artifact_kms_key_deletion_window_days
  force_destroy                          = var.artifact_bucket_force_destroy
}

module "redis" {
  source = "../redis"

  name                     = local.name
  vpc_id                   = local.cluster.vpc_config[0].vpc_id
  subnet_ids               = var.redis_subnet_ids
  source_security_group_id = coalesce(var.redis_allowed_security_group_id, local.cluster.vpc_config[0].cluster_security_group_id)

  node_type                   = var.redis_node_type
  num_cache_clusters          = var.redis_num_cache_clusters
  automatic_failover_enabled  = var.redis_automatic_failover_enabled
  multi_az_enabled            = var.redis_multi_az_enabled
  snapshot_retention_limit    = var.redis_snapshot_retention_days
  apply_immediately           = var.redis_apply_immediately
  secret_recovery_window_days = var.redis_secret_recovery_window_days
}

module "workload_identity" {
  source = "../workload_identity"

  name_prefix       = local.name
  oidc_provider_arn = data.aws_iam_openid_connect_provider.cluster.arn
  oidc_issuer       = trimprefix(local.oidc_issuer, "https://")
  namespace         = var.kubernetes_namespace
  bucket_arn        = module.artifact_bucket.bucket_arn
  prefix            = var.s3_prefix
  kms_key_arn       = module.artifact_bucket.kms_key_arn
}
