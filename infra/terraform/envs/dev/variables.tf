variable "aws_region" {
  type        = string
  description = "AWS region of the cluster, the bucket and Redis (S3_REGION)."
}

variable "eks_cluster_name" {
  type        = string
  description = "Name of the EKS cluster Jacobian runs on; its OIDC provider, VPC and cluster security group are looked up from it."
}

variable "kubernetes_namespace" {
  type        = string
  description = "Kubernetes namespace of Jacobian's ServiceAccounts (jacobian-api, jacobian-runner, jacobian-checker)."
  default     = "jacobian"
}

variable "artifact_bucket_name" {
  type        = string
  description = "Globally unique name of the artifact bucket (S3_BUCKET)."
}

variable "s3_prefix" {
  type        = string
  description = "Key prefix for artifacts inside the bucket (S3_PREFIX); must equal the S3_PREFIX the workloads run with."
  default     = ""
}

variable "temporary_prefixes" {
  type        = list(string)
  description = "Bucket-relative key prefixes whose objects expire after temporary_object_expiration_days."
  default     = ["tmp/"]
}

variable "temporary_object_expiration_days" {
  type        = number
  description = "Days after which objects under temporary_prefixes expire."
  default     = 1
}

variable "noncurrent_version_expiration_days" {
  type        = number
  description = "Days noncurrent object versions are kept before they are removed."
  default     = 7
}

variable "abort_incomplete_multipart_upload_days" {
  type        = number
  description = "Days after which incomplete multipart uploads are aborted."
  default     = 1
}

variable "redis_subnet_ids" {
  type        = list(string)
  description = "Private subnets for the Redis nodes (in the cluster's VPC)."
}

variable "redis_allowed_security_group_id" {
  type        = string
  description = "Security group allowed to reach Redis on 6379; null uses the EKS cluster security group (attached to managed node groups). Set it to the pod security group when using security groups for pods."
  default     = null
}

variable "redis_node_type" {
  type        = string
  description = "ElastiCache node type for Redis."
  default     = "cache.t4g.micro"
}

variable "redis_num_cache_clusters" {
  type        = number
  description = "Number of Redis nodes (primary plus replicas)."
  default     = 1
}

variable "redis_snapshot_retention_days" {
  type        = number
  description = "Days of automatic Redis snapshots to keep (0 turns them off)."
  default     = 0
}

variable "redis_secret_recovery_window_days" {
  type        = number
  description = "Days Secrets Manager keeps the Redis URL secret after deletion (0 deletes at once)."
  default     = 0
}

variable "extra_tags" {
  type        = map(string)
  description = "Tags added to every resource besides project and environment (e.g. owner, cost-center)."
  default     = {}
}
