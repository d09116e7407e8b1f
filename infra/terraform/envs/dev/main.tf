# Jacobian on AWS, dev: the artifact bucket, managed Redis and the IRSA roles of the three roles,
# all from ../../modules/jacobian. This root holds the provider, the backend (versions.tf) and the
# values that make the environment dev. Outputs feed the Kubernetes overlay (see ../../README.md).

locals {
  environment = "dev"
}

provider "aws" {
  region = var.aws_region

  default_tags {
    tags = merge(var.extra_tags, {
      project     = "jacobian"
      environment = local.environment
    })
  }
}

module "jacobian" {
  source = "../../modules/jacobian"

  environment          = local.environment
  eks_cluster_name     = var.eks_cluster_name
  kubernetes_namespace = var.kubernetes_namespace

  artifact_bucket_name                   = var.artifact_bucket_name
  s3_prefix                              = var.s3_prefix
  temporary_prefixes                     = var.temporary_prefixes
  temporary_object_expiration_days       = var.temporary_object_expiration_days
  noncurrent_version_expiration_days     = var.noncurrent_version_expiration_days
  abort_incomplete_multipart_upload_days = var.abort_incomplete_multipart_upload_days
  artifact_kms_key_deletion_window_days  = 7
  artifact_bucket_force_destroy          = true

  redis_subnet_ids                  = var.redis_subnet_ids
  redis_allowed_security_group_id   = var.redis_allowed_security_group_id
  redis_node_type                   = var.redis_node_type
  redis_num_cache_clusters          = var.redis_num_cache_clusters
  redis_automatic_failover_enabled  = false
  redis_multi_az_enabled            = false
  redis_apply_immediately           = true
  redis_snapshot_retention_days     = var.redis_snapshot_retention_days
  redis_secret_recovery_window_days = var.redis_secret_recovery_window_days
}

# The three modules used to be called from this root. These blocks move their state into
# module.jacobian on the next plan/apply, so existing resources are kept, not replaced.
moved {
  from = module.artifact_bucket
  to   = module.jacobian.module.artifact_bucket
}

moved {
  from = module.redis
  to   = module.jacobian.module.redis
}

moved {
  from = module.workload_identity
  to   = module.jacobian.module.workload_identity
}
