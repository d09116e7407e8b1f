# Managed Redis for Jacobian's BullMQ queues, heartbeats and catalog: TLS in transit, encrypted at
# rest, AUTH token required, reachable only from the workloads' security group inside the VPC
# (ElastiCache has no public endpoint). The full rediss:// URL goes to Secrets Manager so that the
# operator can copy it into the Kubernetes Secret `jacobian-redis` without it appearing in outputs.

locals {
  port = 6379
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

resource "aws_elasticache_replication_group" "redis" {
  replication_group_id = var.name
  description          = "Jacobian queues and coordination (${var.name})"

  engine               = "redis"
  engine_version       = var.engine_version
  parameter_group_name = "default.redis${split(".", var.engine_version)[0]}"
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
