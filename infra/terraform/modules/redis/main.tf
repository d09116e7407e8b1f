# Managed Redis for Jacobian's BullMQ queues, heartbeats and catalog: TLS in transit, encrypted at
# rest, AUTH token required, no eviction (its own parameter group), reachable only from the
# workloads' security group inside the VPC (ElastiCache has no public endpoint). The full rediss:// URL goes to Secrets Manager so that the
# operator can copy it into the Kubernetes Secret `jacobian-redis` without it appearing in outputs.

locals {
  port = 6379
  # ElastiCache names parameter group families by major version: redis7 for 7.x.
  parameter_group_family = "redis${split(".", var.engine_version)[0]}"
}

resource "random_password" "auth_token" {
  # ElastiCache accepts 16-128 printable characters except '/', '"' and '@'; letters and digits
  # alone also keep the token safe inside a URL.
  length  = 64
  special = false
}

resource "aws_elasticache_subnet_group" "redis" {
  name        = var.name
  description = "Private subnets for ${var.name}"
  subnet_ids  = var.subnet_ids
}

resource "aws_security_group" "redis" {
  name        = "${var.name}-redis"
  description = "Redis ${var.name}: TLS on ${local.port} from the workloads only"
  vpc_id      = var.vpc_id
  # No egress rules: Terraform removes the default allow-all egress rule, and Redis opens no
  # connections of its own.
}

resource "aws_vpc_security_group_ingress_rule" "redis_from_workloads" {
  security_group_id            = aws_security_group.redis.id
  description                  = "Redis from the workloads"
  ip_protocol                  = "tcp"
  from_port                    = local.port
  to_port                      = local.port
  referenced_security_group_id = var.source_security_group_id
}

# The default parameter group evicts under memory pressure (maxmemory-policy volatile-lru), and
# the keys with a TTL go first: BullMQ's job locks, the runners' heartbeat registrations, the MCP
# tasks. BullMQ needs noeviction: a full Redis then refuses writes, and runs fail visibly
# instead of a running job being handed to a second runner. Every role checks this at start
# and fails /readyz while it is not so (docs/operations.md, "Redis"). ElastiCache applies a
# maxmemory-policy change to running nodes without a reboot.
resource "aws_elasticache_parameter_group" "redis" {
  # The family is part of the name: an engine upgrade to a new major version creates the new
  # group before the replication group leaves the old one.
  name        = "${var.name}-${local.parameter_group_family}"
  family      = local.parameter_group_family
  description = "Jacobian ${var.name}: no eviction (BullMQ locks, heartbeats and tasks must stay)"

  parameter {
    name  = "maxmemory-policy"
    value = "noeviction"
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_elasticache_replication_group" "redis" {
  replication_group_id = var.name
  description          = "Jacobian queues and coordination (${var.name})"

  engine               = "redis"
  engine_version       = var.engine_version
  parameter_group_name = aws_elasticache_parameter_group.redis.name
  node_type            = var.node_type
  num_cache_clusters   = var.num_cache_clusters
  port                 = local.port

  subnet_group_name  = aws_elasticache_subnet_group.redis.name
  security_group_ids = [aws_security_group.redis.id]

  at_rest_encryption_enabled = true
  transit_encryption_enabled = true
  auth_token                 = random_password.auth_token.result

  automatic_failover_enabled = var.automatic_failover_enabled
  multi_az_enabled           = var.multi_az_enabled

  snapshot_retention_limit   = var.snapshot_retention_limit
  maintenance_window         = var.maintenance_window
  apply_immediately          = var.apply_immediately
  auto_minor_version_upgrade = true

  lifecycle {
    precondition {
      condition     = !var.automatic_failover_enabled || var.num_cache_clusters >= 2
      error_message = "automatic_failover_enabled needs num_cache_clusters >= 2."
    }
    precondition {
      condition     = !var.multi_az_enabled || var.automatic_failover_enabled
      error_message = "multi_az_enabled needs automatic_failover_enabled."
    }
  }
}

resource "aws_secretsmanager_secret" "redis_url" {
  name                    = "${var.name}/redis-url"
  description             = "REDIS_URL (rediss://:TOKEN@host:port) for Jacobian; copy it into the Kubernetes Secret jacobian-redis, key REDIS_URL."
  recovery_window_in_days = var.secret_recovery_window_days
}

resource "aws_secretsmanager_secret_version" "redis_url" {
  secret_id     = aws_secretsmanager_secret.redis_url.id
  secret_string = "rediss://:${urlencode(random_password.auth_token.result)}@${aws_elasticache_replication_group.redis.primary_endpoint_address}:${local.port}"
}
