variable "name_prefix" {
  type        = string
  description = "Prefix of the IAM role names; the roles are <name_prefix>-api, <name_prefix>-runner and <name_prefix>-checker."

  validation {
    condition     = can(regex("^[A-Za-z0-9+=,.@_-]{1,56}$", var.name_prefix))
    error_message = "name_prefix must be 1-56 characters valid in an IAM role name."
  }
}

variable "oidc_provider_arn" {
  type        = string
  description = "ARN of the IAM OIDC identity provider of the EKS cluster."
}

variable "oidc_issuer" {
  type        = string
  description = "Issuer of the EKS cluster's OIDC provider without the https:// scheme, e.g. oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE."

  validation {
    condition     = !startswith(var.oidc_issuer, "https://") && var.oidc_issuer != ""
    error_message = "oidc_issuer must be given without the https:// scheme."
  }
}

variable "namespace" {
  type        = string
  description = "Kubernetes namespace of Jacobian's ServiceAccounts (jacobian-api, jacobian-runner, jacobian-checker)."
}

variable "bucket_arn" {
  type        = string
  description = "ARN of the artifact bucket."
}

variable "prefix" {
  type        = string
  description = "Key prefix Jacobian stores artifacts under (S3_PREFIX); a trailing '/' is added when missing, as Jacobian does."
  default     = ""

  validation {
    condition     = !startswith(var.prefix, "/")
    error_message = "prefix must not start with '/'."
  }
}

variable "kms_key_arn" {
  type        = string
  description = "ARN of the KMS key that encrypts the artifact bucket."
}
