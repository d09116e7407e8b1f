# Every value in which the environments differ is a variable without a default: each environment
# states it in its own module call or variables.tf. Range checks live in the modules called here
# (e.g. redis refuses automatic failover with fewer than 2 nodes, and Multi-AZ without failover).

variable "environment" {
  type        = string
  description = "Environment name (dev, prod, ...). Names the resources jacobian-<environment> (Redis) and jacobian-<environment>-api|runner|checker (IAM roles)."

  validation {
    condition     = can(regex("^[a-z0-9]+(-[a-z0-9]+)*$", var.environment)) && length(var.environment) <= 31
    error_message = "environment must be at most 31 characters of a-z, 0-9 and single '-' between them (jacobian-<environment> names the Redis replication group)."
  }
}

variable "eks_cluster_name" {
  type        = string
  description = "Name of the EKS cluster Jacobian runs on; its OIDC provider, VPC and cluster security group are looked up from it."
}

variable "kubernetes_namespace" {
  type        = string
  description = "Kubernetes namespace of Jacobian's ServiceAccounts (jacobian-api, jacobian-runner, jacobian-checker)."
}

# --- Artifact bucket ---------------------------------------------------------------------------

variable "artifact_bucket_name" {
  type        = string
  description = "Globally unique name of the artifact bucket (S3_BUCKET)."
}

variable "s3_prefix" {
  type        = string
  description = "Key prefix for artifacts inside the bucket (S3_PREFIX); the bucket policy and the IAM policies are written for it. Must equal the S3_PREFIX the workloads run with."
}

variable "temporary_prefixes" {
  type        = list(string)
  description = "Bucket-relative key prefixes whose objects expire after temporary_object_expiration_days."
}

variable "temporary_object_expiration_days" {
  type        = number
  description = "Days after which objects under temporary_prefixes expire."
}

variable "noncurrent_version_expiration_days" {
  type        = number
  description = "Days noncurrent object versions are kept before they are removed."
}

variable "abort_incomplete_multipart_upload_days" {
  type        = number
  description = "Days after which incomplete multipart uploads are aborted."
}

variable "artifact_kms_key_deletion_window_days" {
  type        = number
  description = "Waiting period (7-30 days) before the artifact bucket's KMS key is deleted once scheduled for deletion."
}

variable "artifact_bucket_force_destroy" {
  type        = bool
  description = "Allow terraform destroy to delete the artifact bucket while it still holds objects. Only for throwaway environments."
}

# --- Redis -------------------------------------------------------------------------------------

variable "redis_subnet_ids" {
  type        = list(string)
  description = "Private subnets for the Redis nodes, in the cluster's VPC (in at least two availability zones when redis_multi_az_enabled is true)."
}

variable "redis_allowed_security_group_id" {
  type        = string
  description = "Security group allowed to reach Redis on 6379; null uses the EKS cluster security group (attached to managed node groups)."
  default     = null
}

variable "redis_node_type" {
  type        = string
  description = "ElastiCache node type for Redis."
}

variable "redis_num_cache_clusters" {
  type        = number
  description = "Number of Redis nodes (primary plus replicas); at least 2 when redis_automatic_failover_enabled is true."
}

variable "redis_automatic_failover_enabled" {
  type        = bool
  description = "Promote a Redis replica automatically when the primary fails (needs redis_num_cache_clusters >= 2)."
}

variable "redis_multi_az_enabled" {
  type        = bool
  description = "Spread the Redis nodes over availability zones with Multi-AZ failover (needs redis_automatic_failover_enabled)."
}

variable "redis_apply_immediately" {
  type        = bool
  description = "Apply Redis changes at once instead of in the next maintenance window."
}

variable "redis_snapshot_retention_days" {
  type        = number
  description = "Days of automatic Redis snapshots to keep (0 turns them off)."
}

variable "redis_secret_recovery_window_days" {
  type        = number
  description = "Days Secrets Manager keeps the Redis URL secret after deletion (0 deletes at once, else 7-30)."
}
