variable "name" {
  type        = string
  description = "Name of the replication group; also names its subnet group, security group and secret."

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}[a-z0-9]$", var.name)) && !strcontains(var.name, "--")
    error_message = "name must be 2-40 characters of a-z, 0-9 and '-', start with a letter, not end with '-' and not contain '--'."
  }
}

variable "vpc_id" {
  type        = string
  description = "VPC that holds the private subnets and the workloads' security group."
}

variable "subnet_ids" {
  type        = list(string)
  description = "Private subnets for the cache nodes; give subnets in at least two availability zones when multi_az_enabled is true."

  validation {
    condition     = length(var.subnet_ids) > 0
    error_message = "subnet_ids must name at least one subnet."
  }
}

variable "source_security_group_id" {
  type        = string
  description = "Security group of the workloads that may connect (the EKS node or pod security group); only it is allowed in on port 6379."
}

variable "node_type" {
  type        = string
  description = "ElastiCache node type, e.g. cache.t4g.small."
}

variable "engine_version" {
  type        = string
  description = "Redis OSS engine version (7.x; major and minor, e.g. 7.1)."
  default     = "7.1"

  validation {
    condition     = can(regex("^7\\.[0-9]+$", var.engine_version))
    error_message = "engine_version must be a Redis 7 version given as major.minor, e.g. 7.1."
  }
}

variable "num_cache_clusters" {
  type        = number
  description = "Number of nodes (primary plus replicas); at least 2 when automatic failover or multi-AZ is enabled."
  default     = 1

  validation {
    condition     = var.num_cache_clusters >= 1 && var.num_cache_clusters <= 6 && floor(var.num_cache_clusters) == var.num_cache_clusters
    error_message = "num_cache_clusters must be a whole number between 1 and 6."
  }
}

variable "automatic_failover_enabled" {
  type        = bool
  description = "Promote a replica automatically when the primary fails (needs num_cache_clusters >= 2)."
  default     = false
}

variable "multi_az_enabled" {
  type        = bool
  description = "Spread nodes over availability zones with Multi-AZ failover (needs automatic_failover_enabled)."
  default     = false
}

variable "snapshot_retention_limit" {
  type        = number
  description = "Days of automatic snapshots to keep; 0 turns snapshots off. ElastiCache has no AOF: with the replicas, snapshots are what keeps the tasks and reasoning logs."
  default     = 1

  validation {
    condition     = var.snapshot_retention_limit >= 0 && var.snapshot_retention_limit <= 35
    error_message = "snapshot_retention_limit must be between 0 and 35."
  }
}

variable "maintenance_window" {
  type        = string
  description = "Weekly maintenance window in UTC, ddd:hh24:mi-ddd:hh24:mi."
  default     = "sun:03:00-sun:04:00"
}

variable "apply_immediately" {
  type        = bool
  description = "Apply changes at once instead of in the next maintenance window."
  default     = false
}

variable "secret_recovery_window_days" {
  type        = number
  description = "Days Secrets Manager keeps the Redis URL secret after deletion (0 deletes at once, else 7-30)."
  default     = 30

  validation {
    condition     = var.secret_recovery_window_days == 0 || (var.secret_recovery_window_days >= 7 && var.secret_recovery_window_days <= 30)
    error_message = "secret_recovery_window_days must be 0 or between 7 and 30."
  }
}
