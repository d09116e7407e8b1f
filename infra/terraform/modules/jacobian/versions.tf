terraform {
  required_version = ">= 1.6"

  # No provider blocks here: the environment's root module configures the aws provider (region,
  # default_tags) and passes it down implicitly. random is used by the redis module.
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.60, < 7.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.5, < 4.0"
    }
  }
}
